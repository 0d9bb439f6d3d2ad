import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import { LinkTable } from '@connector/exactly-once';
import { DocumentLinkEntity } from './document-link.entity';

export interface DocumentKey {
  connectorId: string;
  candidateId: string;
  sha256: string;
}

export interface DocumentLink {
  documentId: string;
  externalId: string | null;
  state: 'pending' | 'linked';
}

/**
 * Every read and write of `document_link`: one row per file per candidate per connector. `fence`: the
 * caller's candidate lock token (see LinkTable).
 */
@Injectable()
export class DocumentLinkRepository {
  private readonly rows: Repository<DocumentLinkEntity>;
  private readonly table: LinkTable<DocumentLinkEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.rows = dataSource.getRepository(DocumentLinkEntity);
    this.table = new LinkTable(this.rows);
  }

  async find(key: DocumentKey, fence?: number): Promise<DocumentLink | undefined> {
    return this.table.find(keyOf(key), fence);
  }

  /** The claim, committed before the upload; a claim taken again keeps its first document id. */
  async markPending(key: DocumentKey, documentId: string, fence?: number): Promise<void> {
    await this.table.claim(keyOf(key), { documentId }, [], fence);
  }

  async link(key: DocumentKey, externalId: string, fence?: number): Promise<void> {
    await this.table.link(keyOf(key), externalId, {}, fence);
  }

  /** The upload surely did not happen (refused before or without sending): free the claim. */
  async release(key: DocumentKey, fence?: number): Promise<void> {
    await this.table.release(keyOf(key), fence);
  }

  /** The connectors where files of the candidate are attached. */
  async connectorsOf(candidateId: string): Promise<string[]> {
    const rows = await this.rows.find({ select: { connectorId: true }, where: { candidateId } });
    return [...new Set(rows.map((row) => row.connectorId))];
  }

  /** Erasure: the candidate's files in a connector (their fingerprints) are forgotten. The rows removed. */
  async erase(connectorId: string, candidateId: string): Promise<number> {
    return (await this.rows.delete({ connectorId, candidateId })).affected ?? 0;
  }
}

/** Only the key's columns, whatever else the caller's object carries. */
function keyOf({ connectorId, candidateId, sha256 }: DocumentKey): DocumentKey {
  return { connectorId, candidateId, sha256 };
}
