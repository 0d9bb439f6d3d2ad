import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { type LinkKey, LinkTable } from '@connector/exactly-once';

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
  private readonly table: LinkTable;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.table = new LinkTable(dataSource, 'document_link');
  }

  async find(key: DocumentKey): Promise<DocumentLink | undefined> {
    const row = await this.table.find<{
      document_id: string;
      external_id: string | null;
      state: 'pending' | 'linked';
    }>(columnsOf(key));
    return row && { documentId: row.document_id, externalId: row.external_id, state: row.state };
  }

  /** The claim, committed before the upload; a claim taken again keeps its first document id. */
  async markPending(key: DocumentKey, documentId: string): Promise<void> {
    await this.table.claim(columnsOf(key), { document_id: documentId });
  }

  async link(key: DocumentKey, externalId: string): Promise<void> {
    await this.table.link(columnsOf(key), externalId);
  }

  /** The upload surely did not happen (refused before or without sending): free the claim. */
  async release(key: DocumentKey): Promise<void> {
    await this.table.release(columnsOf(key));
  }
}

function columnsOf(key: DocumentKey): LinkKey {
  return { connector_id: key.connectorId, candidate_id: key.candidateId, sha256: key.sha256 };
}
