/**
 * A run's statements, each one round trip (hand SQL with named parameters, prepared: a fleet runs them
 * thousands of times a minute; their plans are checked with EXPLAIN in vacancy-sync.plans.int-spec.ts). A step
 * of a run writes only while this process holds the connector's lease: the step's statement renews the lease
 * and writes in the same statement, so a process that lost it changes nothing and learns so from the answer.
 */
import type { RunMode } from '@connector/contracts';
import { type Placeholders, type RowOf, type RowShape, sqlStatement } from '@connector/persistence';
import type { RunPhase, RunTrigger, SyncConnector, SyncRun, SyncRunStatus } from './sync-run';

export const OPEN_STATUSES = `('queued', 'running', 'paused')`;

/** What a statement answering a run returns of it (`runOf` reads it). */
export const RUN_ROW = {
  run_id: 'string',
  connector_id: 'string',
  account_id: 'string',
  trigger: 'string',
  requested_mode: 'string | null',
  mode: 'string | null',
  since: 'date | null',
  status: 'string',
  phase: 'string',
  // bigint: pg hands it over as text.
  after_position: 'string',
  fetched: 'number',
  upserted: 'number',
  unchanged: 'number',
  closed: 'number',
  read_records: 'number',
  warnings: 'json',
  api_calls: 'number',
  attempts: 'number',
  resume_at: 'date | null',
  correlation_id: 'string | null',
  created_at: 'date',
  started_at: 'date | null',
} as const satisfies RowShape;
type RunRow = RowOf<typeof RUN_ROW>;

/** RUN_ROW's columns, as a statement answering a run lists them. */
export const RUN_COLUMNS = Object.keys(RUN_ROW).join(', ');

/** A connector's last successes, as a statement answering them returns them (`lastSuccessesOf` reads them). */
export const LAST_SUCCESSES_ROW = {
  last_success_started_at: 'date | null',
  last_full_started_at: 'date | null',
} as const satisfies RowShape;

/** Who holds a connector's lease, and for how long a renewal keeps it. */
export interface LeaseCheck {
  owner: string;
  leaseSeconds: number;
}

/**
 * The lease check of a step of run `runId`: renews the lease of the run's connector if `owner` holds it and it
 * has not lapsed, as a CTE named `held` (no row: lost). The step's writes go on only `WHERE EXISTS (SELECT 1
 * FROM held)`, and the statement answers `held`.
 */
function leaseHeld(p: Placeholders<LeaseCheck & { runId: string }>): string {
  return `held AS (
    UPDATE sync_connector
    SET lease_until = clock_timestamp() + make_interval(secs => ${p.leaseSeconds}::float8)
    WHERE connector_id = (SELECT r.connector_id FROM sync_run r WHERE r.run_id = ${p.runId})
      AND lease_owner = ${p.owner} AND lease_until >= clock_timestamp()
    RETURNING connector_id)`;
}

/** A connector's head run (its oldest open one), with the connector's last successes. */
export const HEAD_RUN = sqlStatement<{ connectorId: string }>(
  (p) => `
  SELECT ${RUN_COLUMNS.replace(/(\w+)/g, 'r.$1')}, c.last_success_started_at, c.last_full_started_at
  FROM sync_run r LEFT JOIN sync_connector c ON c.connector_id = r.connector_id
  WHERE r.connector_id = ${p.connectorId} AND r.status IN ${OPEN_STATUSES}
  ORDER BY r.created_at, r.run_id
  LIMIT 1`,
).withRow({ ...RUN_ROW, ...LAST_SUCCESSES_ROW });

export const RUN = sqlStatement<{ runId: string }>(
  (p) => `SELECT ${RUN_COLUMNS} FROM sync_run WHERE run_id = ${p.runId}`,
).withRow(RUN_ROW);

/** Makes a connector known, its first scheduled sync `firstInSeconds` from now (or makes it active again). */
export const REGISTER_CONNECTOR = sqlStatement<{
  connectorId: string;
  accountId: string;
  firstInSeconds: number;
}>(
  (p) => `
  INSERT INTO sync_connector (connector_id, account_id, active, next_run_at)
  VALUES (${p.connectorId}, ${p.accountId}, true, now() + make_interval(secs => ${p.firstInSeconds}::float8))
  ON CONFLICT (connector_id) DO UPDATE SET active = true`,
);

/** Records a run request; a redelivered one (same run id) inserts nothing, and answers no row. */
export const ENQUEUE = sqlStatement<{
  runId: string;
  connectorId: string;
  accountId: string;
  trigger: RunTrigger;
  requestedMode: RunMode | null;
  correlationId: string | null;
}>(
  (p) => `
  INSERT INTO sync_run (run_id, connector_id, account_id, trigger, requested_mode, status, correlation_id)
  VALUES (${p.runId}, ${p.connectorId}, ${p.accountId}, ${p.trigger}, ${p.requestedMode}, 'queued', ${p.correlationId})
  ON CONFLICT (run_id) DO NOTHING
  RETURNING run_id`,
).withRow({ run_id: 'string' });

type ConnectorLease = LeaseCheck & { connectorId: string };

/** Takes (or keeps) a connector's lease for `owner`, unless another holds a live one. */
export const TRY_LEASE = sqlStatement<ConnectorLease>(
  (p) => `
  UPDATE sync_connector
  SET lease_owner = ${p.owner}, lease_until = clock_timestamp() + make_interval(secs => ${p.leaseSeconds}::float8)
  WHERE connector_id = ${p.connectorId}
    AND (lease_until IS NULL OR lease_until < clock_timestamp() OR lease_owner = ${p.owner})
  RETURNING connector_id`,
).withRow({ connector_id: 'string' });

/** Extends a lease `owner` still holds (not lapsed). */
export const RENEW_LEASE = sqlStatement<ConnectorLease>(
  (p) => `
  UPDATE sync_connector SET lease_until = clock_timestamp() + make_interval(secs => ${p.leaseSeconds}::float8)
  WHERE connector_id = ${p.connectorId} AND lease_owner = ${p.owner} AND lease_until >= clock_timestamp()
  RETURNING connector_id`,
).withRow({ connector_id: 'string' });

export const RELEASE_LEASE = sqlStatement<{ connectorId: string; owner: string }>(
  (p) => `
  UPDATE sync_connector SET lease_owner = NULL, lease_until = NULL
  WHERE connector_id = ${p.connectorId} AND lease_owner = ${p.owner}`,
);

export const DEACTIVATE = sqlStatement<{ connectorId: string }>(
  (p) => `UPDATE sync_connector SET active = false WHERE connector_id = ${p.connectorId}`,
);

/** The customer system of a connector, written only when it changed. */
export const LEARN_SYSTEM = sqlStatement<{ connectorId: string; systemKey: string }>(
  (p) => `
  UPDATE sync_connector SET system_key = ${p.systemKey}
  WHERE connector_id = ${p.connectorId} AND system_key IS DISTINCT FROM ${p.systemKey}`,
);

/**
 * Marks a run running (with the lease check); its mode and `since` are fixed the first time, so a resumed run
 * lists the same set. Answers the run, no row when the lease is lost.
 */
export const START = sqlStatement<LeaseCheck & { runId: string; mode: RunMode; since: Date | null }>(
  (p) => `
  WITH ${leaseHeld(p)}
  UPDATE sync_run
  SET status = 'running', resume_at = NULL, mode = coalesce(mode, ${p.mode}),
      since = CASE WHEN mode IS NULL THEN ${p.since}::timestamptz ELSE since END,
      started_at = coalesce(started_at, clock_timestamp())
  WHERE run_id = ${p.runId} AND EXISTS (SELECT 1 FROM held)
  RETURNING ${RUN_COLUMNS}`,
).withRow(RUN_ROW);

/** What a run's step commits, as COMMIT_STEP takes it. */
export interface StepValues extends LeaseCheck {
  runId: string;
  /** Vacancies seen: external ids, content hashes and last advertised days (null: open-ended), in step. */
  seenIds: string[];
  seenHashes: string[];
  seenLiveUntil: Array<string | null>;
  closedIds: string[];
  fetched: number;
  upserted: number;
  unchanged: number;
  closed: number;
  apiCalls: number;
  read: number;
  /** The cursor; null keeps it. */
  after: number | null;
  phase: RunPhase | null;
  /** A JSON array of warnings to add (each code and message is kept once). */
  warnings: string;
}

/**
 * Commits a step of a run (with the lease check): its vacancies seen (`updated_at` moves only when the content
 * or liveness changed) and closed, its counts added, its cursor and warnings. Answers `held`.
 */
export const COMMIT_STEP = sqlStatement<StepValues>(
  (p) => `
  WITH ${leaseHeld(p)},
  seen AS (
    INSERT INTO vacancy_state AS s
      (connector_id, external_id, content_hash, live, last_seen_run, live_until, updated_at)
    SELECT held.connector_id, v.external_id, v.content_hash, true, ${p.runId}, v.live_until, now()
    FROM held, unnest(${p.seenIds}::text[], ${p.seenHashes}::text[], ${p.seenLiveUntil}::date[])
      AS v(external_id, content_hash, live_until)
    ON CONFLICT (connector_id, external_id) DO UPDATE
    SET content_hash = EXCLUDED.content_hash, live = true, last_seen_run = EXCLUDED.last_seen_run,
        live_until = EXCLUDED.live_until,
        updated_at = CASE WHEN s.content_hash = EXCLUDED.content_hash AND s.live THEN s.updated_at ELSE now() END
  ),
  closed AS (
    UPDATE vacancy_state SET live = false, updated_at = now()
    WHERE connector_id = (SELECT connector_id FROM held) AND external_id = ANY(${p.closedIds}::text[])
  ),
  advanced AS (
    UPDATE sync_run
    SET fetched = fetched + ${p.fetched}, upserted = upserted + ${p.upserted},
        unchanged = unchanged + ${p.unchanged}, closed = closed + ${p.closed},
        api_calls = api_calls + ${p.apiCalls}, read_records = read_records + ${p.read}, attempts = 0,
        after_position = coalesce(${p.after}, after_position), phase = coalesce(${p.phase}, phase),
        warnings = warnings || (SELECT coalesce(jsonb_agg(w), '[]'::jsonb)
          FROM jsonb_array_elements(${p.warnings}::jsonb) w WHERE NOT warnings @> jsonb_build_array(w))
    WHERE run_id = ${p.runId} AND EXISTS (SELECT 1 FROM held)
  )
  SELECT EXISTS (SELECT 1 FROM held) AS held`,
).withRow({ held: 'boolean' });

/**
 * Parks an open run until `resumeAt` (with the lease check), with its attempts, why, and the API calls since
 * its last commit; a run no longer open stays as it is. Answers `held`.
 */
export const PAUSE = sqlStatement<
  LeaseCheck & { runId: string; resumeAt: Date; attempts: number; error: string; apiCalls: number }
>(
  (p) => `
  WITH ${leaseHeld(p)},
  parked AS (
    UPDATE sync_run
    SET status = 'paused', resume_at = ${p.resumeAt}, attempts = ${p.attempts}, error = ${p.error},
        api_calls = api_calls + ${p.apiCalls}
    WHERE run_id = ${p.runId} AND status IN ${OPEN_STATUSES} AND EXISTS (SELECT 1 FROM held)
  )
  SELECT EXISTS (SELECT 1 FROM held) AS held`,
).withRow({ held: 'boolean' });

/**
 * The first half of a run's end: renews the lease of the connector `owner` holds and answers its schedule, so
 * the next run is worked out (and announced) before the end is written. No row: the lease is lost.
 */
export const END_SCHEDULE = sqlStatement<ConnectorLease>(
  (p) => `
  UPDATE sync_connector SET lease_until = clock_timestamp() + make_interval(secs => ${p.leaseSeconds}::float8)
  WHERE connector_id = ${p.connectorId} AND lease_owner = ${p.owner} AND lease_until >= clock_timestamp()
  RETURNING interval_seconds, next_run_at, options_version, clock_timestamp() AS now`,
).withRow({ interval_seconds: 'number', next_run_at: 'date', options_version: 'number', now: 'date' });

/** The end of a run, as END takes it. */
export interface EndValues {
  connectorId: string;
  owner: string;
  runId: string;
  status: Extract<SyncRunStatus, 'succeeded' | 'failed'>;
  error: string | null;
  /** API calls since the run's last commit. */
  apiCalls: number;
  /** The schedule; null keeps it. */
  nextRunAt: Date | null;
  intervalSeconds: number | null;
  /** The last-success marks; null keeps them. */
  lastSuccessStartedAt: Date | null;
  lastFullStartedAt: Date | null;
}

/**
 * The second half: while `owner` still holds the connector (locked, so nobody takes it meanwhile), ends the
 * run, moves the schedule and the last-success marks, and gives the lease back unless the connector has
 * another open run. Answers the run and `more` (another run is open, the lease kept); no row when the lease is
 * lost.
 */
export const END = sqlStatement<EndValues>(
  (p) => `
  WITH held AS (
    SELECT connector_id FROM sync_connector
    WHERE connector_id = ${p.connectorId} AND lease_owner = ${p.owner} FOR UPDATE
  ),
  ended AS (
    UPDATE sync_run
    SET status = ${p.status}, error = ${p.error}, api_calls = api_calls + ${p.apiCalls}, resume_at = NULL,
        finished_at = clock_timestamp()
    WHERE run_id = ${p.runId} AND EXISTS (SELECT 1 FROM held)
    RETURNING ${RUN_COLUMNS}
  ),
  others AS (
    SELECT EXISTS (
      SELECT 1 FROM sync_run
      WHERE connector_id = ${p.connectorId} AND run_id <> ${p.runId} AND status IN ${OPEN_STATUSES}
    ) AS more
  ),
  moved AS (
    UPDATE sync_connector c
    SET next_run_at = coalesce(${p.nextRunAt}, c.next_run_at),
        interval_seconds = coalesce(${p.intervalSeconds}, c.interval_seconds),
        last_success_started_at = coalesce(${p.lastSuccessStartedAt}, c.last_success_started_at),
        last_full_started_at = coalesce(${p.lastFullStartedAt}, c.last_full_started_at),
        lease_owner = CASE WHEN others.more THEN c.lease_owner END,
        lease_until = CASE WHEN others.more THEN c.lease_until END
    FROM others
    WHERE c.connector_id = ${p.connectorId} AND EXISTS (SELECT 1 FROM ended)
  )
  SELECT ended.*, others.more FROM ended, others`,
).withRow({ ...RUN_ROW, more: 'boolean' });

/** A run out of a row of RUN_COLUMNS. */
export function runOf(row: RunRow): SyncRun {
  return {
    runId: row.run_id,
    connectorId: row.connector_id,
    accountId: row.account_id,
    trigger: row.trigger as RunTrigger,
    requestedMode: (row.requested_mode ?? undefined) as RunMode | undefined,
    mode: (row.mode ?? undefined) as RunMode | undefined,
    since: row.since ?? undefined,
    status: row.status as SyncRunStatus,
    phase: row.phase as RunPhase,
    after: Number(row.after_position),
    counts: { fetched: row.fetched, upserted: row.upserted, unchanged: row.unchanged, closed: row.closed },
    read: row.read_records,
    warnings: Array.isArray(row.warnings) ? (row.warnings as SyncRun['warnings']) : [],
    apiCalls: row.api_calls,
    attempts: row.attempts,
    resumeAt: row.resume_at ?? undefined,
    correlationId: row.correlation_id ?? undefined,
    createdAt: row.created_at,
    startedAt: row.started_at ?? undefined,
  };
}

/** A connector's last successes out of a row with LAST_SUCCESSES_ROW's columns. */
export function lastSuccessesOf(
  row: RowOf<typeof LAST_SUCCESSES_ROW>,
): Pick<SyncConnector, 'lastSuccessStartedAt' | 'lastFullStartedAt'> {
  return {
    lastSuccessStartedAt: row.last_success_started_at ?? undefined,
    lastFullStartedAt: row.last_full_started_at ?? undefined,
  };
}
