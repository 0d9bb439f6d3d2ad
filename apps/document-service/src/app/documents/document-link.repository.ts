import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import {
  type ClaimedOrFound,
  type Fenced,
  type FencedWrite,
  type LinkClaim,
  LinkTable,
} from '@connector/exactly-once';
import { DocumentLinkEntity } from './document-link.entity';
import { DOCUMENT_LINKS, type DocumentClaim, type DocumentKey } from './document-link.sql';

export type { DocumentKey } from './document-link.sql';

export interface DocumentLink {
  documentId: string;
  externalId: string | null;
  state: 'pending' | 'linked';
}

/**
 * Every read and write of `document_link`, its link flow generated from DOCUMENT_LINKS: one row per file per
 * candidate per connector. `fence`: the caller's candidate lock token (see LinkTable).
 */
@Injectable()
export class DocumentLinkRepository {
  private readonly rows: Repository<DocumentLinkEntity>;
  private readonly table: LinkTable<DocumentLinkEntity, DocumentKey, DocumentClaim>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.rows = dataSource.getRepository(DocumentLinkEntity);
    this.table = new LinkTable(dataSource, DocumentLinkEntity, DOCUMENT_LINKS);
  }

  /**
   * The candidate's lock, and the file's link read under the lock's token or, when there is none, its upload
   * claimed, in one statement (CandidateLocks.runBy). Nothing is written for an erased candidate.
   */
  claimOrFind(
    key: DocumentKey,
    values: { accountId: string; documentId: string },
  ): LinkClaim<ClaimedOrFound<DocumentLink>> {
    return this.table.claimOrFind(key, values);
  }

  /** The link as it is, read without the lock. */
  async find(key: DocumentKey): Promise<DocumentLink | undefined> {
    return this.table.find(key);
  }

  /** The claim taken again, committed before the upload; a claim taken again keeps its first document id. */
  async markPending(key: DocumentKey, values: DocumentClaim & Fenced): Promise<void> {
    await this.table.claim(key, values);
  }

  /** The file is in the ATS; with `release`, the lock it was written under goes in the same round trip. */
  async link(key: DocumentKey, options: { externalId: string } & FencedWrite): Promise<void> {
    await this.table.link(key, options);
  }

  /** The upload surely did not happen (refused before or without sending): free the claim. */
  async release(key: DocumentKey, options: Fenced): Promise<void> {
    await this.table.release(key, options);
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
