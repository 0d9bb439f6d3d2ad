import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

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

/** Every read and write of `document_link`: one row per file per candidate per connector. */
@Injectable()
export class DocumentLinkRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(key: DocumentKey): Promise<DocumentLink | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT "document_id", "external_id", "state" FROM "document_link"
       WHERE "connector_id" = $1 AND "candidate_id" = $2 AND "sha256" = $3`,
      [key.connectorId, key.candidateId, key.sha256],
    )) as Array<{ document_id: string; external_id: string | null; state: 'pending' | 'linked' }>;
    const row = rows[0];
    return row && { documentId: row.document_id, externalId: row.external_id, state: row.state };
  }

  /** The claim, committed before the upload. */
  async markPending(key: DocumentKey, documentId: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO "document_link" ("connector_id", "candidate_id", "sha256", "document_id", "state")
       VALUES ($1, $2, $3, $4, 'pending')
       ON CONFLICT ("connector_id", "candidate_id", "sha256") DO UPDATE SET "updated_at" = now()
       WHERE "document_link"."external_id" IS NULL`,
      [key.connectorId, key.candidateId, key.sha256, documentId],
    );
  }

  async link(key: DocumentKey, externalId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE "document_link" SET "external_id" = $4, "state" = 'linked', "updated_at" = now()
       WHERE "connector_id" = $1 AND "candidate_id" = $2 AND "sha256" = $3`,
      [key.connectorId, key.candidateId, key.sha256, externalId],
    );
  }

  /** The upload surely did not happen (refused before or without sending): free the claim. */
  async release(key: DocumentKey): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM "document_link"
       WHERE "connector_id" = $1 AND "candidate_id" = $2 AND "sha256" = $3 AND "external_id" IS NULL`,
      [key.connectorId, key.candidateId, key.sha256],
    );
  }
}
