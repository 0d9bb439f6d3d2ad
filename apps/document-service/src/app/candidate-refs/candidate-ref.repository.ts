import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import { preparedStatements, type SqlQueryable } from '@connector/persistence';
import { CandidateRefEntity } from './candidate-ref.entity';
import { FIND_CANDIDATE_REF } from './candidate-ref.sql';

/** document-service's own copy of "which ATS record is this candidate", fed by `candidate.synced`. */
@Injectable()
export class CandidateRefRepository {
  private readonly refs: Repository<CandidateRefEntity>;
  private readonly statements: SqlQueryable;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.refs = dataSource.getRepository(CandidateRefEntity);
    this.statements = preparedStatements(dataSource);
  }

  async find(connectorId: string, candidateId: string): Promise<string | undefined> {
    const [row] = await FIND_CANDIDATE_REF.rows(this.statements, { connectorId, candidateId });
    return row?.external_id;
  }

  /** The connectors that told where the candidate lives. */
  async connectorsOf(candidateId: string): Promise<string[]> {
    const rows = await this.refs.find({ select: { connectorId: true }, where: { candidateId } });
    return rows.map((row) => row.connectorId);
  }

  /** Erasure: where the candidate lives in a connector's ATS is forgotten. The rows removed. */
  async erase(connectorId: string, candidateId: string): Promise<number> {
    return (await this.refs.delete({ connectorId, candidateId })).affected ?? 0;
  }

  /** One upsert: the newest announcement wins. */
  async record(connectorId: string, candidateId: string, externalId: string): Promise<void> {
    await this.refs.upsert({ connectorId, candidateId, externalId }, ['connectorId', 'candidateId']);
  }
}
