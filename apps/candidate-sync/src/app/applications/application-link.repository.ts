import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import {
  type ClaimedOrFound,
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
import type { SentAnswers } from './application-answers';
import { ApplicationLinkEntity } from './application-link.entity';

export interface ApplicationLink extends OrderedLink {
  answers: SentAnswers;
}

export interface ApplicationKey {
  connectorId: string;
  candidateId: string;
  vacancyExternalId: string;
}

/** What the first statement under a candidate's lock found for one application (see claimOrFind). */
export type ApplicationClaimOrFind =
  | { erased: true }
  | { erased: false; candidateExternalId: null }
  | (Exclude<ClaimedOrFound<ApplicationLink>, { erased: true }> & { candidateExternalId: string });

/**
 * As candidate-sync's CLAIM_OR_FIND_SQL, for an application: one statement takes the candidate's lock
 * (LEASE_CTE, $1–$4) and, only when it was granted, asks whether the candidate is erased and reads its ATS
 * id; when it is not erased and is in the ATS, it reads the application's link under the lock's new token
 * (fenced, as LinkTable.find) or, when there is none, claims the create (`pending`, as LinkTable.claim): an
 * application without a row whose candidate is in the ATS is always created next. Nothing is written
 * otherwise. $5 connector, $6 candidate, $7 vacancy, $8 account, $9 application id, $10 event id.
 */
export const APPLICATION_CLAIM_OR_FIND_SQL = `
WITH ${LEASE_CTE}, erased AS (
  SELECT EXISTS (SELECT 1 FROM "erased_candidate" WHERE "account_id" = $8 AND "candidate_id" = $6) AS yes
), candidate AS (
  SELECT (SELECT "external_id" FROM "candidate_link" WHERE "connector_id" = $5 AND "candidate_id" = $6)
    AS "external_id"
), claimed AS (
  INSERT INTO "application_link" AS l
    ("connector_id", "candidate_id", "vacancy_external_id", "application_id", "state", "created_event_id", "fence")
  SELECT $5, $6, $7, $9, 'pending', $10, lease."token" FROM lease, erased, candidate
   WHERE NOT erased.yes AND candidate."external_id" IS NOT NULL
  ON CONFLICT ("connector_id", "candidate_id", "vacancy_external_id") DO UPDATE SET "fence" = EXCLUDED."fence"
    WHERE l."fence" IS NULL OR l."fence" <= EXCLUDED."fence"
  RETURNING l.*, (l.xmax = 0) AS "claimed"
)
SELECT lease."token" AS "lease_token", erased.yes AS "erased", candidate."external_id" AS "candidate_external_id",
       claimed.*
  FROM erased CROSS JOIN candidate LEFT JOIN lease ON true LEFT JOIN claimed ON true`;

/**
 * The application applied, one statement under the lock's fence (as LinkTable.update, which it stands for on
 * this path): the last event and the answers sent, and with $8, the ATS id of the application the event
 * just created (then linked, the event its creator). $1 connector, $2 candidate, $3 vacancy, $4 answers,
 * $5 event id, $6 occurredAt, $7 content hash, $8 external id or null, $9 fence.
 */
export const APPLICATION_APPLIED_SQL = `
UPDATE "application_link"
   SET "answers" = $4::jsonb, "last_event_id" = $5, "last_occurred_at" = $6::timestamptz,
       "content_hash" = $7, "fence" = $9::bigint, "updated_at" = now(),
       "external_id" = coalesce($8::text, "external_id"),
       "state" = CASE WHEN $8::text IS NULL THEN "state" ELSE 'linked' END,
       "created_event_id" = CASE WHEN $8::text IS NULL THEN "created_event_id" ELSE $5 END
 WHERE "connector_id" = $1 AND "candidate_id" = $2 AND "vacancy_external_id" = $3
   AND ("fence" IS NULL OR "fence" <= $9::bigint)
RETURNING 1`;

/** APPLICATION_APPLIED_SQL and, in the same round trip, the release of the lock it was written under ($10–$12). */
export const APPLICATION_APPLIED_AND_RELEASED_SQL = `
WITH ${leaseReleaseCte(10)}, applied AS (${APPLICATION_APPLIED_SQL})
SELECT 1 FROM applied`;

/**
 * Every read and write of `application_link`; the key is unique, so one ATS application per pair. `fence`:
 * the caller's candidate lock token (see LinkTable).
 */
@Injectable()
export class ApplicationLinkRepository {
  private readonly rows: Repository<ApplicationLinkEntity>;
  private readonly table: OrderedLinkTable<ApplicationLinkEntity>;
  /** The two statements every application runs (claimOrFind, applied), prepared. */
  private readonly statements: SqlQueryable;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.rows = dataSource.getRepository(ApplicationLinkEntity);
    this.table = new OrderedLinkTable(this.rows);
    this.statements = preparedStatements(dataSource);
  }

  /**
   * The statement that takes the candidate's lock, reads the candidate's ATS id and claims or reads the
   * application's link (APPLICATION_CLAIM_OR_FIND_SQL), for CandidateLocks.runBy; read with `found`.
   */
  claimOrFind(
    key: ApplicationKey,
    accountId: string,
    applicationId: string,
    eventId: string,
  ): LeaseStatement<SqlRow> {
    return claimOrFindStatement(this.statements, APPLICATION_CLAIM_OR_FIND_SQL, [
      key.connectorId,
      key.candidateId,
      key.vacancyExternalId,
      accountId,
      applicationId,
      eventId,
    ]);
  }

  /** What claimOrFind found; LeaseLostError when a later holder of the lock has fenced the row. */
  found(key: ApplicationKey, row: SqlRow): ApplicationClaimOrFind {
    const candidateExternalId = row['candidate_external_id'];
    if (row['erased'] !== true && typeof candidateExternalId !== 'string') {
      // Nothing was claimed: the application waits for its candidate.
      return { erased: false, candidateExternalId: null };
    }
    const found = claimedOrFound(this.rows, row, keyOf(key));
    return found.erased ? found : { ...found, candidateExternalId: String(candidateExternalId) };
  }

  async find(key: ApplicationKey, fence?: number): Promise<ApplicationLink | undefined> {
    return this.table.find(keyOf(key), fence);
  }

  /** The claim, committed before the ATS create: the next try looks the application up first. */
  async markPending(
    key: ApplicationKey,
    applicationId: string,
    eventId: string,
    fence?: number,
  ): Promise<void> {
    await this.table.claim(keyOf(key), { applicationId, createdEventId: eventId }, ['createdEventId'], fence);
  }

  async link(key: ApplicationKey, externalId: string, answers: SentAnswers, fence?: number): Promise<void> {
    await this.table.link(keyOf(key), externalId, { answers }, fence);
  }

  /**
   * The event is fully applied: its answers sent. `created`: the application this event just created, when
   * nothing was sent after the create: its link is written with the event, one statement. `release`: the
   * lock's release, to go with this last write (Lease.release).
   */
  async applied(
    key: ApplicationKey,
    event: { id: string; occurredAt: string },
    contentHash: string,
    answers: SentAnswers,
    fence: number,
    created?: { externalId: string },
    release?: Lease['release'],
  ): Promise<void> {
    const params = [
      key.connectorId,
      key.candidateId,
      key.vacancyExternalId,
      JSON.stringify(answers),
      event.id,
      event.occurredAt,
      contentHash,
      created?.externalId ?? null,
      fence,
    ];
    const rows = rowsOf(
      release
        ? await this.statements.query(APPLICATION_APPLIED_AND_RELEASED_SQL, [...params, ...release.params])
        : await this.statements.query(APPLICATION_APPLIED_SQL, params),
    );
    release?.done();
    if (rows.length === 0) throw staleLink('application_link', keyOf(key));
  }

  /**
   * Erasure: the candidate's applications in a connector keep their ids and lose the answers' hashes and the
   * content hash. Under the candidate lock, whose token it takes. The rows it holds.
   */
  async erase(connectorId: string, candidateId: string, fence: number): Promise<number> {
    const result = await this.rows.update(
      { connectorId, candidateId },
      { answers: {}, contentHash: null, fence: String(fence) },
    );
    return result.affected ?? 0;
  }
}

/** Only the key's columns, whatever else the caller's object carries. */
function keyOf({ connectorId, candidateId, vacancyExternalId }: ApplicationKey): ApplicationKey {
  return { connectorId, candidateId, vacancyExternalId };
}
