/**
 * The scheduler's statements (hand SQL: each one statement that matters at fleet size; their plans are checked
 * with EXPLAIN against the migrated schema in sync-run.repository.int-spec.ts). Due times are compared with
 * `statement_timestamp()`, not `clock_timestamp()`: a volatile function cannot bound an index scan.
 */

import { OPEN_STATUSES, RUN_COLUMNS } from './sync-run.sql';

/**
 * Due connectors nobody runs, locked for this claim (rows another process is claiming are skipped, not waited
 * for): `$2` true takes first syncs only (never synced; their own index), false everyone, oldest due first.
 * `$1` rows at most.
 */
export const DUE_CANDIDATES_SQL = `
  SELECT s.connector_id, s.account_id, s.system_key, s.next_run_at, s.interval_seconds,
         s.last_success_started_at, s.last_full_started_at,
         s.last_success_started_at IS NULL AS first_sync, statement_timestamp() AS now
  FROM sync_connector s
  WHERE s.active
    AND s.next_run_at <= statement_timestamp()
    AND (NOT $2::boolean OR s.last_success_started_at IS NULL)
    AND (s.lease_until IS NULL OR s.lease_until < clock_timestamp())
    AND NOT EXISTS (
      SELECT 1 FROM sync_run r WHERE r.connector_id = s.connector_id AND r.status IN ${OPEN_STATUSES})
  ORDER BY s.next_run_at
  LIMIT $1
  FOR UPDATE OF s SKIP LOCKED`;

/**
 * Serialises claims on the same customer systems (`$1`) across processes until the claim commits, so two
 * processes never both count the same free room under a system's cap. Taken in one order: no deadlock.
 */
export const LOCK_SYSTEMS_SQL = `
  SELECT count(pg_advisory_xact_lock(7310, hashtext(k)))
  FROM (SELECT k FROM unnest($1::text[]) k ORDER BY k) ordered`;

/** Runs going on now per customer system (`$1`: the systems asked about), in any process. */
export const RUNNING_PER_SYSTEM_SQL = `
  SELECT system_key, count(*)::int AS running
  FROM sync_connector
  WHERE lease_owner IS NOT NULL AND system_key = ANY($1::text[]) AND lease_until >= clock_timestamp()
  GROUP BY system_key`;

/**
 * Claims the picked connectors for this process: each one's lease (`$2` owner, `$3` seconds) and its next
 * scheduled time (`$4`, one per id of `$1`), and its scheduled run (`$5` run ids, `$6` accounts, `$7` the
 * time it was due), in one statement. Answers the runs (RUN_COLUMNS): each its connector's head run, since
 * only connectors without an open run are due.
 */
export const CLAIM_SQL = `
  WITH leased AS (
    UPDATE sync_connector s
    SET next_run_at = ($4::timestamptz[])[array_position($1::text[], s.connector_id)],
        lease_owner = $2,
        lease_until = clock_timestamp() + make_interval(secs => $3)
    WHERE s.connector_id = ANY($1::text[])
    RETURNING s.connector_id
  )
  INSERT INTO sync_run (run_id, connector_id, account_id, trigger, status, scheduled_at)
  SELECT p.run_id, p.connector_id, p.account_id, 'scheduled', 'queued', p.scheduled_at
  FROM unnest($1::text[], $5::text[], $6::text[], $7::timestamptz[])
    AS p(connector_id, run_id, account_id, scheduled_at)
  JOIN leased l ON l.connector_id = p.connector_id
  RETURNING ${RUN_COLUMNS}`;

/**
 * Connectors whose head run (oldest open) may go on now and that nobody holds: asked-for runs first, then by
 * age. `$1` rows at most.
 */
export const RUNNABLE_SQL = `
  SELECT h.connector_id
  FROM (
    SELECT DISTINCT ON (r.connector_id) r.connector_id, r.trigger, r.resume_at, r.created_at
    FROM sync_run r
    WHERE r.status IN ${OPEN_STATUSES}
    ORDER BY r.connector_id, r.created_at, r.run_id
  ) h
  WHERE (h.resume_at IS NULL OR h.resume_at <= clock_timestamp())
    -- A subplan, looked up by key for the few open runs (a join would read every connector).
    AND coalesce(
      (SELECT c.lease_until FROM sync_connector c WHERE c.connector_id = h.connector_id), '-infinity'
    ) < clock_timestamp()
  ORDER BY h.trigger = 'requested' DESC, h.created_at
  LIMIT $1`;

/** Due connectors not started yet, across the fleet (the gauge `connector_sync_due_connectors`). */
export const DUE_COUNT_SQL = `
  SELECT count(*)::int AS due
  FROM sync_connector s
  WHERE s.active
    AND s.next_run_at <= statement_timestamp()
    AND (s.lease_until IS NULL OR s.lease_until < clock_timestamp())
    AND NOT EXISTS (
      SELECT 1 FROM sync_run r WHERE r.connector_id = s.connector_id AND r.status IN ${OPEN_STATUSES})`;

/**
 * Applies a `connector.status_changed` of `$4` (unless an older one than the last applied): a new connector is
 * due at once; one connected again is due at once too unless its next run is still ahead. `$5`: its customer
 * system when known (null keeps what was known).
 */
export const APPLY_STATUS_SQL = `
  INSERT INTO sync_connector AS c (connector_id, account_id, active, status_changed_at, next_run_at, system_key)
  VALUES ($1, $2, $3, $4, clock_timestamp(), $5)
  ON CONFLICT (connector_id) DO UPDATE
  SET active = EXCLUDED.active,
      status_changed_at = EXCLUDED.status_changed_at,
      system_key = coalesce(EXCLUDED.system_key, c.system_key),
      next_run_at = CASE WHEN EXCLUDED.active AND NOT c.active
                         THEN greatest(c.next_run_at, clock_timestamp()) ELSE c.next_run_at END
  WHERE c.status_changed_at IS NULL OR c.status_changed_at <= EXCLUDED.status_changed_at
  RETURNING connector_id`;
