import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import {
  claimedOrFound,
  claimOrFindStatement,
  type OrderedLink,
  OrderedLinkTable,
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
import { CandidateLinkEntity } from './candidate-link.entity';
import type { SentState } from './candidate-sink';

export interface CandidateLink extends OrderedLink {
  connectorId: string;
  candidateId: string;
  sent: SentState;
}

/** What the first statement under a candidate's lock found (see claimOrFind). */
export type ClaimOrFind =
  | { erased: true }
  | { erased: false; claimed: true }
  | { erased: false; claimed: false; link: CandidateLink };

/**
 * One statement takes the candidate's lock (LEASE_CTE, $1–$4) and, only when it was granted, asks whether
 * the candidate is erased; if not, reads the link row under the lock's new token (fenced, as
 * LinkTable.find), or, when there is none, claims the create (`pending`, as LinkTable.claim): a candidate
 * without a row is always created next, so neither its lock nor its claim needs a round trip of its own.
 * Nothing is written for an erased candidate. $5 connector, $6 candidate, $7 account, $8 event id.
 */
export const CLAIM_OR_FIND_SQL = `
WITH ${LEASE_CTE}, erased AS (
  SELECT EXISTS (SELECT 1 FROM "erased_candidate" WHERE "account_id" = $7 AND "candidate_id" = $6) AS yes
), claimed AS (
  INSERT INTO "candidate_link" AS l ("connector_id", "candidate_id", "account_id", "state", "created_event_id", "fence")
  SELECT $5, $6, $7, 'pending', $8, lease."token" FROM lease, erased WHERE NOT erased.yes
  ON CONFLICT ("connector_id", "candidate_id") DO UPDATE SET "fence" = EXCLUDED."fence"
    WHERE l."fence" IS NULL OR l."fence" <= EXCLUDED."fence"
  RETURNING l.*, (l.xmax = 0) AS "claimed"
)
SELECT lease."token" AS "lease_token", erased.yes AS "erased", claimed.*
  FROM erased LEFT JOIN lease ON true LEFT JOIN claimed ON true`;

/**
 * The event applied, one statement under the lock's fence (as LinkTable.update, which it stands for on this
 * path, run once per event): the last event and what was sent, and with $8, the ATS id of the record the
 * event just created (then linked, the event its creator). $1 connector, $2 candidate, $3 sent, $4 event id,
 * $5 occurredAt, $6 content hash, $7 fence, $8 external id or null.
 */
export const APPLIED_SQL = `
UPDATE "candidate_link"
   SET "sent" = $3::jsonb, "last_event_id" = $4, "last_occurred_at" = $5::timestamptz, "content_hash" = $6,
       "fence" = $7::bigint, "updated_at" = now(),
       "external_id" = coalesce($8::text, "external_id"),
       "state" = CASE WHEN $8::text IS NULL THEN "state" ELSE 'linked' END,
       "created_event_id" = CASE WHEN $8::text IS NULL THEN "created_event_id" ELSE $4 END
 WHERE "connector_id" = $1 AND "candidate_id" = $2 AND ("fence" IS NULL OR "fence" <= $7::bigint)
RETURNING 1`;

/** APPLIED_SQL and, in the same round trip, the release of the lock it was written under ($9–$11). */
export const APPLIED_AND_RELEASED_SQL = `
WITH ${leaseReleaseCte(9)}, applied AS (${APPLIED_SQL})
SELECT 1 FROM applied`;

/**
 * Every read and write of `candidate_link`. Callers hold the (connector, candidate) lock and pass its token
 * as `fence`, so a write of a holder whose lease has passed on is refused (see LinkTable).
 */
@Injectable()
export class CandidateLinkRepository {
  private readonly rows: Repository<CandidateLinkEntity>;
  private readonly table: OrderedLinkTable<CandidateLinkEntity>;
  /** The two statements every event runs (claimOrFind, applied), prepared. */
  private readonly statements: SqlQueryable;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.rows = dataSource.getRepository(CandidateLinkEntity);
    this.statements = preparedStatements(dataSource);
    this.table = new OrderedLinkTable(this.rows);
  }

  async find(connectorId: string, candidateId: string, fence?: number): Promise<CandidateLink | undefined> {
    const row = await this.table.find({ connectorId, candidateId }, fence);
    return row && withSent(row);
  }

  /**
   * The statement that takes the candidate's lock and claims or reads its link (CLAIM_OR_FIND_SQL), for
   * CandidateLocks.runBy; what it found is read under the lock with `found`.
   */
  claimOrFind(
    connectorId: string,
    candidateId: string,
    accountId: string,
    eventId: string,
  ): LeaseStatement<SqlRow> {
    return claimOrFindStatement(this.statements, CLAIM_OR_FIND_SQL, [
      connectorId,
      candidateId,
      accountId,
      eventId,
    ]);
  }

  /** What claimOrFind found; LeaseLostError when a later holder of the lock has fenced the row. */
  found(connectorId: string, candidateId: string, row: SqlRow): ClaimOrFind {
    const found = claimedOrFound(this.rows, row, { connectorId, candidateId });
    return found.erased || found.claimed ? found : { ...found, link: withSent(found.link) };
  }

  /** The intent, committed before the ATS create: after a crash or a timeout the next try looks first. */
  async markPending(
    connectorId: string,
    candidateId: string,
    accountId: string,
    eventId: string,
    fence?: number,
  ): Promise<void> {
    await this.table.claim(
      { connectorId, candidateId },
      { accountId, createdEventId: eventId },
      ['createdEventId'],
      fence,
    );
  }

  /** Frees a claim whose create surely did not happen (the ATS refused it); a linked row stays. */
  async release(connectorId: string, candidateId: string, fence?: number): Promise<void> {
    await this.table.release({ connectorId, candidateId }, fence);
  }

  /** The ATS record exists (created by this event, or found by looking it up). */
  async link(
    connectorId: string,
    candidateId: string,
    externalId: string,
    sent: SentState,
    createdEventId: string | null,
    fence?: number,
  ): Promise<void> {
    await this.table.link({ connectorId, candidateId }, externalId, { sent, createdEventId }, fence);
  }

  /** Progress while an update runs in several ATS calls (ATS-B's work history and education). */
  /**
   * Progress of an event being applied (what the ATS holds now). With `occurredAt`, the event's time is kept
   * as the record's last too: part of it is in the ATS, so an older event is stale from now on, even if this
   * one fails before it is fully applied; this one still applies in full when it comes again (its id and
   * content are not recorded until `applied`).
   */
  async saveSent(
    connectorId: string,
    candidateId: string,
    sent: SentState,
    fence?: number,
    occurredAt?: string,
  ): Promise<void> {
    const values = occurredAt === undefined ? { sent } : { sent, lastOccurredAt: new Date(occurredAt) };
    await this.table.update({ connectorId, candidateId }, values, fence);
  }

  /**
   * The event is fully applied. `created`: the record this event just created, when nothing else was sent
   * after the create: its link is written with the event, one statement.
   */
  async applied(
    connectorId: string,
    candidateId: string,
    event: { id: string; occurredAt: string },
    contentHash: string,
    sent: SentState,
    fence?: number,
    created?: { externalId: string },
    /** The lock's release, to go with this last write (Lease.release). */
    release?: Lease['release'],
  ): Promise<void> {
    if (fence === undefined) {
      const linked = created
        ? { externalId: created.externalId, state: 'linked' as const, createdEventId: event.id }
        : {};
      await this.table.applied({ connectorId, candidateId }, event, contentHash, { sent, ...linked });
      return;
    }
    const params = [
      connectorId,
      candidateId,
      JSON.stringify(sent),
      event.id,
      event.occurredAt,
      contentHash,
      fence,
      created?.externalId ?? null,
    ];
    const rows = rowsOf(
      release
        ? await this.statements.query(APPLIED_AND_RELEASED_SQL, [...params, ...release.params])
        : await this.statements.query(APPLIED_SQL, params),
    );
    release?.done();
    if (rows.length === 0) throw staleLink('candidate_link', { connectorId, candidateId });
  }

  /** The connectors where the candidate has a link (a connector deleted since included). */
  async connectorsOf(accountId: string, candidateId: string): Promise<string[]> {
    const rows = await this.rows.find({ select: { connectorId: true }, where: { accountId, candidateId } });
    return rows.map((row) => row.connectorId);
  }

  /**
   * Erasure: the link keeps its ids (which ATS record was this candidate) and loses what was sent (field
   * hashes, child keys, content hash). Under the candidate lock, whose token it takes. The rows it holds.
   */
  async erase(connectorId: string, candidateId: string, fence: number): Promise<number> {
    const result = await this.rows.update(
      { connectorId, candidateId },
      { sent: {}, contentHash: null, fence: String(fence) },
    );
    return result.affected ?? 0;
  }
}

function withSent(row: CandidateLinkEntity): CandidateLink {
  return { ...row, sent: { fields: row.sent.fields ?? {}, children: row.sent.children ?? {} } };
}
