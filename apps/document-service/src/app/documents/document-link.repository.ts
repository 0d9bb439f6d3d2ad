import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import {
  type ClaimedOrFound,
  claimedOrFound,
  claimOrFindStatement,
  LinkTable,
  staleLink,
} from '@connector/exactly-once';
import {
  type Lease,
  LEASE_CTE,
  type LeaseStatement,
  leaseReleaseCte,
  preparedStatements,
  rowsOf,
  type SqlQueryable,
  type SqlRow,
} from '@connector/persistence';
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
 * As candidate-sync's CLAIM_OR_FIND_SQL, for a file: one statement takes the candidate's lock (LEASE_CTE,
 * $1–$4) and, only when it was granted, asks whether the candidate is erased; if not, reads the file's link
 * under the lock's new token (fenced, as LinkTable.find) or, when there is none, claims the upload
 * (`pending`, as LinkTable.claim): a file without a row is always uploaded next. Nothing is written for an
 * erased candidate. $5 connector, $6 candidate, $7 sha256, $8 account, $9 document id.
 */
export const DOCUMENT_CLAIM_OR_FIND_SQL = `
WITH ${LEASE_CTE}, erased AS (
  SELECT EXISTS (SELECT 1 FROM "erased_candidate" WHERE "account_id" = $8 AND "candidate_id" = $6) AS yes
), claimed AS (
  INSERT INTO "document_link" AS l ("connector_id", "candidate_id", "sha256", "document_id", "state", "fence")
  SELECT $5, $6, $7, $9, 'pending', lease."token" FROM lease, erased WHERE NOT erased.yes
  ON CONFLICT ("connector_id", "candidate_id", "sha256") DO UPDATE SET "fence" = EXCLUDED."fence"
    WHERE l."fence" IS NULL OR l."fence" <= EXCLUDED."fence"
  RETURNING l.*, (l.xmax = 0) AS "claimed"
)
SELECT lease."token" AS "lease_token", erased.yes AS "erased", claimed.*
  FROM erased LEFT JOIN lease ON true LEFT JOIN claimed ON true`;

/**
 * The file's ATS id, under the lock's fence (as LinkTable.link), and the lock's release in the same round
 * trip: nothing follows the link under the lock. $1 connector, $2 candidate, $3 sha256, $4 external id,
 * $5 fence; the release $6–$8.
 */
export const DOCUMENT_LINKED_AND_RELEASED_SQL = `
WITH ${leaseReleaseCte(6)}, linked AS (
  UPDATE "document_link"
     SET "external_id" = $4, "state" = 'linked', "fence" = $5::bigint, "updated_at" = now()
   WHERE "connector_id" = $1 AND "candidate_id" = $2 AND "sha256" = $3
     AND ("fence" IS NULL OR "fence" <= $5::bigint)
  RETURNING 1
)
SELECT 1 FROM linked`;

/**
 * Every read and write of `document_link`: one row per file per candidate per connector. `fence`: the
 * caller's candidate lock token (see LinkTable).
 */
@Injectable()
export class DocumentLinkRepository {
  private readonly rows: Repository<DocumentLinkEntity>;
  private readonly table: LinkTable<DocumentLinkEntity>;
  /** The two statements every upload runs (claimOrFind, link with the release), prepared. */
  private readonly statements: SqlQueryable;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.rows = dataSource.getRepository(DocumentLinkEntity);
    this.table = new LinkTable(this.rows);
    this.statements = preparedStatements(dataSource);
  }

  /**
   * The statement that takes the candidate's lock and claims or reads the file's link
   * (DOCUMENT_CLAIM_OR_FIND_SQL), for CandidateLocks.runBy; what it found is read with `found`.
   */
  claimOrFind(key: DocumentKey, accountId: string, documentId: string): LeaseStatement<SqlRow> {
    return claimOrFindStatement(this.statements, DOCUMENT_CLAIM_OR_FIND_SQL, [
      key.connectorId,
      key.candidateId,
      key.sha256,
      accountId,
      documentId,
    ]);
  }

  /** What claimOrFind found; LeaseLostError when a later holder of the lock has fenced the row. */
  found(key: DocumentKey, row: SqlRow): ClaimedOrFound<DocumentLink> {
    return claimedOrFound(this.rows, row, keyOf(key));
  }

  async find(key: DocumentKey, fence?: number): Promise<DocumentLink | undefined> {
    return this.table.find(keyOf(key), fence);
  }

  /** The claim, committed before the upload; a claim taken again keeps its first document id. */
  async markPending(key: DocumentKey, documentId: string, fence?: number): Promise<void> {
    await this.table.claim(keyOf(key), { documentId }, [], fence);
  }

  /** The file is in the ATS; with `release`, the lock it was written under goes in the same round trip. */
  async link(key: DocumentKey, externalId: string, fence: number, release?: Lease['release']): Promise<void> {
    if (!release) {
      await this.table.link(keyOf(key), externalId, {}, fence);
      return;
    }
    const rows = rowsOf(
      await this.statements.query(DOCUMENT_LINKED_AND_RELEASED_SQL, [
        key.connectorId,
        key.candidateId,
        key.sha256,
        externalId,
        fence,
        ...release.params,
      ]),
    );
    release.done();
    if (rows.length === 0) throw staleLink('document_link', keyOf(key));
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
