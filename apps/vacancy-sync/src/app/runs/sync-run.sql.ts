/**
 * A run's statements, each one round trip (hand SQL, prepared: a fleet runs them thousands of times a minute;
 * their plans are checked with EXPLAIN in vacancy-sync.plans.int-spec.ts). A step of a run writes only while
 * this process holds the connector's lease: the step's statement renews the lease and writes in the same
 * statement, so a process that lost it changes nothing and learns so from the answer.
 */
import { booleanColumn, dateColumn, numberColumn, type SqlRow, textColumn } from '@connector/persistence';
import type { RunMode } from '@connector/contracts';
import type { RunPhase, RunTrigger, SyncConnector, SyncRun, SyncRunStatus } from './sync-run';

export const OPEN_STATUSES = `('queued', 'running', 'paused')`;

/** What a statement answering a run returns of it (`runOf` reads it). */
export const RUN_COLUMNS = `run_id, connector_id, account_id, trigger, requested_mode, mode, since, status, phase,
  after_position, fetched, upserted, unchanged, closed, read_records, warnings, api_calls, attempts, resume_at,
  correlation_id, created_at, started_at`;

/**
 * The lease check of a run's step: renews the lease of the connector of run `$1` if owner `$2` holds it and it
 * has not lapsed (`$3`: its new length in seconds). The step's writes go on only `WHERE EXISTS (SELECT 1 FROM
 * held)`; the statement answers `held`, false when the lease is lost.
 */
const LEASE_HELD = `held AS (
    UPDATE sync_connector
    SET lease_until = clock_timestamp() + make_interval(secs => $3)
    WHERE connector_id = (SELECT r.connector_id FROM sync_run r WHERE r.run_id = $1)
      AND lease_owner = $2 AND lease_until >= clock_timestamp()
    RETURNING connector_id)`;

/** A connector's head run (its oldest open one, `$1`), with the connector's last successes. */
export const HEAD_RUN_SQL = `
  SELECT ${RUN_COLUMNS.replace(/(\w+)/g, 'r.$1')}, c.last_success_started_at, c.last_full_started_at
  FROM sync_run r LEFT JOIN sync_connector c ON c.connector_id = r.connector_id
  WHERE r.connector_id = $1 AND r.status IN ${OPEN_STATUSES}
  ORDER BY r.created_at, r.run_id
  LIMIT 1`;

export const RUN_SQL = `SELECT ${RUN_COLUMNS} FROM sync_run WHERE run_id = $1`;

/** Makes connector `$1` of account `$2` known, its first scheduled sync `$3` seconds from now (or active again). */
export const REGISTER_CONNECTOR_SQL = `
  INSERT INTO sync_connector (connector_id, account_id, active, next_run_at)
  VALUES ($1, $2, true, now() + make_interval(secs => $3))
  ON CONFLICT (connector_id) DO UPDATE SET active = true`;

/** Records a run request; a redelivered one (same run id) inserts nothing, and answers no row. */
export const ENQUEUE_SQL = `
  INSERT INTO sync_run (run_id, connector_id, account_id, trigger, requested_mode, status, correlation_id)
  VALUES ($1, $2, $3, $4, $5, 'queued', $6)
  ON CONFLICT (run_id) DO NOTHING
  RETURNING run_id`;

export const CONNECTOR_SQL = `
  SELECT connector_id, account_id, last_success_started_at, last_full_started_at
  FROM sync_connector WHERE connector_id = $1`;

/** Takes (or keeps) the lease of connector `$1` for owner `$2`, `$3` seconds, unless another holds a live one. */
export const TRY_LEASE_SQL = `
  UPDATE sync_connector SET lease_owner = $2, lease_until = clock_timestamp() + make_interval(secs => $3)
  WHERE connector_id = $1 AND (lease_until IS NULL OR lease_until < clock_timestamp() OR lease_owner = $2)
  RETURNING connector_id`;

/** Extends a lease owner `$2` still holds (not lapsed) by `$3` seconds. */
export const RENEW_LEASE_SQL = `
  UPDATE sync_connector SET lease_until = clock_timestamp() + make_interval(secs => $3)
  WHERE connector_id = $1 AND lease_owner = $2 AND lease_until >= clock_timestamp()
  RETURNING connector_id`;

export const RELEASE_LEASE_SQL = `
  UPDATE sync_connector SET lease_owner = NULL, lease_until = NULL WHERE connector_id = $1 AND lease_owner = $2`;

export const DEACTIVATE_SQL = `UPDATE sync_connector SET active = false WHERE connector_id = $1`;

/** The customer system (`$2`) of connector `$1`, written only when it changed. */
export const LEARN_SYSTEM_SQL = `
  UPDATE sync_connector SET system_key = $2 WHERE connector_id = $1 AND system_key IS DISTINCT FROM $2`;

/**
 * Marks run `$1` running (lease check `$1`–`$3`); its mode (`$4`) and `since` (`$5`) are fixed the first time,
 * so a resumed run lists the same set. Answers the run, no row when the lease is lost.
 */
export const START_SQL = `
  WITH ${LEASE_HELD}
  UPDATE sync_run
  SET status = 'running', resume_at = NULL, mode = coalesce(mode, $4),
      since = CASE WHEN mode IS NULL THEN $5::timestamptz ELSE since END,
      started_at = coalesce(started_at, clock_timestamp())
  WHERE run_id = $1 AND EXISTS (SELECT 1 FROM held)
  RETURNING ${RUN_COLUMNS}`;

/**
 * Commits a step of run `$1` (lease check `$1`–`$3`): its vacancies seen (`$4` external ids, `$5` content
 * hashes, `$6` last advertised days; `updated_at` moves only when the content or liveness changed), those
 * closed (`$7`), its counts added (`$8` fetched, `$9` upserted, `$10` unchanged, `$11` closed, `$12` API calls,
 * `$13` records read), its cursor (`$14` position, `$15` phase; null keeps it) and warnings (`$16`, a JSON
 * array; each code and message kept once). Answers `held`.
 */
export const COMMIT_STEP_SQL = `
  WITH ${LEASE_HELD},
  seen AS (
    INSERT INTO vacancy_state AS s
      (connector_id, external_id, content_hash, live, last_seen_run, live_until, updated_at)
    SELECT held.connector_id, v.external_id, v.content_hash, true, $1, v.live_until, now()
    FROM held, unnest($4::text[], $5::text[], $6::date[]) AS v(external_id, content_hash, live_until)
    ON CONFLICT (connector_id, external_id) DO UPDATE
    SET content_hash = EXCLUDED.content_hash, live = true, last_seen_run = EXCLUDED.last_seen_run,
        live_until = EXCLUDED.live_until,
        updated_at = CASE WHEN s.content_hash = EXCLUDED.content_hash AND s.live THEN s.updated_at ELSE now() END
  ),
  closed AS (
    UPDATE vacancy_state SET live = false, updated_at = now()
    WHERE connector_id = (SELECT connector_id FROM held) AND external_id = ANY($7::text[])
  ),
  advanced AS (
    UPDATE sync_run
    SET fetched = fetched + $8, upserted = upserted + $9, unchanged = unchanged + $10, closed = closed + $11,
        api_calls = api_calls + $12, read_records = read_records + $13, attempts = 0,
        after_position = coalesce($14, after_position), phase = coalesce($15, phase),
        warnings = warnings || (SELECT coalesce(jsonb_agg(w), '[]'::jsonb)
          FROM jsonb_array_elements($16::jsonb) w WHERE NOT warnings @> jsonb_build_array(w))
    WHERE run_id = $1 AND EXISTS (SELECT 1 FROM held)
  )
  SELECT EXISTS (SELECT 1 FROM held) AS held`;

/**
 * Parks open run `$1` (lease check `$1`–`$3`) until `$4`, with its attempts (`$5`), why (`$6`) and the API
 * calls since its last commit (`$7`); a run no longer open stays as it is. Answers `held`.
 */
export const PAUSE_SQL = `
  WITH ${LEASE_HELD},
  parked AS (
    UPDATE sync_run
    SET status = 'paused', resume_at = $4, attempts = $5, error = $6, api_calls = api_calls + $7
    WHERE run_id = $1 AND status IN ${OPEN_STATUSES} AND EXISTS (SELECT 1 FROM held)
  )
  SELECT EXISTS (SELECT 1 FROM held) AS held`;

/**
 * The first half of a run's end: renews the lease of connector `$1` held by `$2` (`$3` seconds) and answers
 * its schedule, so the next run is worked out (and announced) before the end is written. No row: lease lost.
 */
export const END_SCHEDULE_SQL = `
  UPDATE sync_connector SET lease_until = clock_timestamp() + make_interval(secs => $3)
  WHERE connector_id = $1 AND lease_owner = $2 AND lease_until >= clock_timestamp()
  RETURNING interval_seconds, next_run_at, clock_timestamp() AS now`;

/**
 * The second half: while owner `$2` still holds connector `$1` (locked, so nobody takes it meanwhile), ends run
 * `$3` (`$4` status, `$5` error, `$6` API calls since its last commit), moves the schedule (`$7` next run,
 * `$8` interval; null keeps them) and the last-success marks (`$9`, `$10`; null keeps them), and gives the
 * lease back unless the connector has another open run. Answers the run and `more` (another run is open, the
 * lease kept); no row when the lease is lost.
 */
export const END_SQL = `
  WITH held AS (
    SELECT connector_id FROM sync_connector WHERE connector_id = $1 AND lease_owner = $2 FOR UPDATE
  ),
  ended AS (
    UPDATE sync_run
    SET status = $4, error = $5, api_calls = api_calls + $6, resume_at = NULL, finished_at = clock_timestamp()
    WHERE run_id = $3 AND EXISTS (SELECT 1 FROM held)
    RETURNING ${RUN_COLUMNS}
  ),
  others AS (
    SELECT EXISTS (
      SELECT 1 FROM sync_run WHERE connector_id = $1 AND run_id <> $3 AND status IN ${OPEN_STATUSES}
    ) AS more
  ),
  moved AS (
    UPDATE sync_connector c
    SET next_run_at = coalesce($7, c.next_run_at), interval_seconds = coalesce($8, c.interval_seconds),
        last_success_started_at = coalesce($9, c.last_success_started_at),
        last_full_started_at = coalesce($10, c.last_full_started_at),
        lease_owner = CASE WHEN others.more THEN c.lease_owner END,
        lease_until = CASE WHEN others.more THEN c.lease_until END
    FROM others
    WHERE c.connector_id = $1 AND EXISTS (SELECT 1 FROM ended)
  )
  SELECT ended.*, others.more FROM ended, others`;

/** A run out of a row of RUN_COLUMNS. */
export function runOf(row: SqlRow): SyncRun {
  return {
    runId: textColumn(row, 'run_id'),
    connectorId: textColumn(row, 'connector_id'),
    accountId: textColumn(row, 'account_id'),
    trigger: textColumn(row, 'trigger') as RunTrigger,
    requestedMode: optionalText(row, 'requested_mode') as RunMode | undefined,
    mode: optionalText(row, 'mode') as RunMode | undefined,
    since: optionalDate(row, 'since'),
    status: textColumn(row, 'status') as SyncRunStatus,
    phase: textColumn(row, 'phase') as RunPhase,
    after: numberColumn(row, 'after_position'),
    counts: {
      fetched: numberColumn(row, 'fetched'),
      upserted: numberColumn(row, 'upserted'),
      unchanged: numberColumn(row, 'unchanged'),
      closed: numberColumn(row, 'closed'),
    },
    read: numberColumn(row, 'read_records'),
    warnings: Array.isArray(row['warnings']) ? (row['warnings'] as SyncRun['warnings']) : [],
    apiCalls: numberColumn(row, 'api_calls'),
    attempts: numberColumn(row, 'attempts'),
    resumeAt: optionalDate(row, 'resume_at'),
    correlationId: optionalText(row, 'correlation_id'),
    createdAt: dateColumn(row, 'created_at'),
    startedAt: optionalDate(row, 'started_at'),
  };
}

/** A connector's last successes out of a row with `last_success_started_at` and `last_full_started_at`. */
export function lastSuccessesOf(
  row: SqlRow,
): Pick<SyncConnector, 'lastSuccessStartedAt' | 'lastFullStartedAt'> {
  return {
    lastSuccessStartedAt: optionalDate(row, 'last_success_started_at'),
    lastFullStartedAt: optionalDate(row, 'last_full_started_at'),
  };
}

/** `held` of a step's answer. */
export function heldOf(row: SqlRow | undefined): boolean {
  return row !== undefined && booleanColumn(row, 'held');
}

function optionalText(row: SqlRow, column: string): string | undefined {
  return row[column] === null || row[column] === undefined ? undefined : textColumn(row, column);
}

function optionalDate(row: SqlRow, column: string): Date | undefined {
  return row[column] === null || row[column] === undefined ? undefined : dateColumn(row, column);
}
