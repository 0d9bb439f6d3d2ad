import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** document-service's own copy of "which ATS record is this candidate", fed by `candidate.synced`. */
@Injectable()
export class CandidateRefRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(connectorId: string, candidateId: string): Promise<string | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT "external_id" FROM "candidate_ref" WHERE "connector_id" = $1 AND "candidate_id" = $2`,
      [connectorId, candidateId],
    )) as Array<{ external_id: string }>;
    return rows[0]?.external_id;
  }

  async record(connectorId: string, candidateId: string, externalId: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO "candidate_ref" ("connector_id", "candidate_id", "external_id") VALUES ($1, $2, $3)
       ON CONFLICT ("connector_id", "candidate_id") DO UPDATE SET "external_id" = $3, "updated_at" = now()`,
      [connectorId, candidateId, externalId],
    );
  }
}
