/**
 * The scheduler's statements (hand SQL: each one statement that matters at fleet size; their plans are checked
 * with EXPLAIN against the migrated schema in sync-run.repository.int-spec.ts). Due times are compared with
 * `statement_timestamp()`, not `clock_timestamp()`: a volatile function cannot bound an index scan.
 */

import { sqlStatement } from '@connector/persistence';
import { LAST_SUCCESSES_ROW, OPEN_STATUSES, RUN_COLUMNS, RUN_ROW } from './sync-run.sql';

/**
 * Due connectors nobody runs, locked for this claim (rows another process is claiming are skipped, not waited
 * for): `firstSyncsOnly` takes first syncs only (never synced; their own index), else everyone, oldest due first.
 * `limit` rows at most.
 */
export const DUE_CANDIDATES = sqlStatement<{ limit: number; firstSyncsOnly: boolean }>(
  (p) => `
  SELECT s.connector_id, s.account_id, s.system_key, s.next_run_at, s.interval_seconds,
         s.last_success_started_at, s.last_full_started_at,
         s.last_success_started_at IS NULL AS first_sync, statement_timestamp() AS now
  FROM sync_connector s
  WHERE s.active
    AND s.next_run_at <= statement_timestamp()
    AND (NOT ${p.firstSyncsOnly}::boolean OR s.last_success_started_at IS NULL)
    AND (s.lease_until IS NULL OR s.lease_until < clock_timestamp())
    AND NOT EXISTS (
      SELECT 1 FROM sync_run r WHERE r.connector_id = s.connector_id AND r.status IN ${OPEN_STATUSES})
  ORDER BY s.next_run_at
  LIMIT ${p.limit}
  FOR UPDATE OF s SKIP LOCKED`,
).withRow({
  connector_id: 'string',
  account_id: 'string',
  system_key: 'string | null',
  next_run_at: 'date',
  interval_seconds: 'number',
  ...LAST_SUCCESSES_ROW,
  first_sync: 'boolean',
  now: 'date',
});

/**
 * Serialises claims on the same customer systems (`systems`) across processes until the claim commits, so two
 * processes never both count the same free room under a system's cap. Taken in one order: no deadlock.
 */
export const LOCK_SYSTEMS = sqlStatement<{ systems: string[] }>(
  (p) => `
  SELECT count(pg_advisory_xact_lock(7310, hashtext(k)))
  FROM (SELECT k FROM unnest(${p.systems}::text[]) k ORDER BY k) ordered`,
).withRow({ count: 'string' });

/**
 * Serialises claims for the same accounts (`accounts`) across processes until the claim commits, as
 * LOCK_SYSTEMS does for systems (its own key space; taken after it, in one order: no deadlock).
 */
export const LOCK_ACCOUNTS = sqlStatement<{ accounts: string[] }>(
  (p) => `
  SELECT count(pg_advisory_xact_lock(7311, hashtext(k)))
  FROM (SELECT k FROM unnest(${p.accounts}::text[]) k ORDER BY k) ordered`,
).withRow({ count: 'string' });

/**
 * Runs going on now per account (`accounts`: the accounts asked about), in any process: a held lease is a run
 * going on (read through the partial index of leased connectors, a few hundred rows, not the fleet).
 */
export const RUNNING_PER_ACCOUNT = sqlStatement<{ accounts: string[] }>(
  (p) => `
  SELECT account_id, count(*)::int AS running
  FROM sync_connector
  WHERE lease_owner IS NOT NULL AND account_id = ANY(${p.accounts}::text[]) AND lease_until >= clock_timestamp()
  GROUP BY account_id`,
).withRow({ account_id: 'string', running: 'number' });

/** Runs going on now per customer system (`systems`: the systems asked about), in any process. */
export const RUNNING_PER_SYSTEM = sqlStatement<{ systems: string[] }>(
  (p) => `
  SELECT system_key, count(*)::int AS running
  FROM sync_connector
  WHERE lease_owner IS NOT NULL AND system_key = ANY(${p.systems}::text[]) AND lease_until >= clock_timestamp()
  GROUP BY system_key`,
).withRow({ system_key: 'string', running: 'number' });

/** What CLAIM takes: per claimed connector (same order in every array), and the lease they all get. */
export interface ClaimValues {
  connectorIds: string[];
  owner: string;
  leaseSeconds: number;
  nextRunAts: Date[];
  runIds: string[];
  accountIds: string[];
  scheduledAts: Date[];
}

/**
 * Claims the picked connectors for this process: each one's lease (held by `owner` for `leaseSeconds`) and its
 * next scheduled time (`nextRunAts`, one per connector), and its scheduled run (`runIds`, `accountIds`,
 * `scheduledAts`: when it was due), in one statement. Answers the runs (RUN_COLUMNS): each its connector's head run, since
 * only connectors without an open run are due.
 */
export const CLAIM = sqlStatement<ClaimValues>(
  (p) => `
  WITH leased AS (
    UPDATE sync_connector s
    SET next_run_at = (${p.nextRunAts}::timestamptz[])[array_position(${p.connectorIds}::text[], s.connector_id)],
        lease_owner = ${p.owner},
        lease_until = clock_timestamp() + make_interval(secs => ${p.leaseSeconds})
    WHERE s.connector_id = ANY(${p.connectorIds}::text[])
    RETURNING s.connector_id
  )
  INSERT INTO sync_run (run_id, connector_id, account_id, trigger, status, scheduled_at)
  SELECT p.run_id, p.connector_id, p.account_id, 'scheduled', 'queued', p.scheduled_at
  FROM unnest(${p.connectorIds}::text[], ${p.runIds}::text[], ${p.accountIds}::text[], ${p.scheduledAts}::timestamptz[])
    AS p(connector_id, run_id, account_id, scheduled_at)
  JOIN leased l ON l.connector_id = p.connector_id
  RETURNING ${RUN_COLUMNS}`,
).withRow(RUN_ROW);

/**
 * Connectors whose head run (oldest open) may go on now and that nobody holds: asked-for runs first, then by
 * age. `limit` rows at most.
 */
export const RUNNABLE = sqlStatement<{ limit: number }>(
  (p) => `
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
  LIMIT ${p.limit}`,
).withRow({ connector_id: 'string' });

/** Due connectors not started yet, across the fleet (the gauge `connector_sync_due_connectors`). */
export const DUE_COUNT = sqlStatement<Record<string, never>>(
  () => `
  SELECT count(*)::int AS due
  FROM sync_connector s
  WHERE s.active
    AND s.next_run_at <= statement_timestamp()
    AND (s.lease_until IS NULL OR s.lease_until < clock_timestamp())
    AND NOT EXISTS (
      SELECT 1 FROM sync_run r WHERE r.connector_id = s.connector_id AND r.status IN ${OPEN_STATUSES})`,
).withRow({ due: 'number' });

/** A `connector.status_changed` as APPLY_STATUS takes it. */
export interface StatusValues {
  connectorId: string;
  accountId: string;
  active: boolean;
  at: Date;
  /** Its customer system when known; null keeps what was known. */
  systemKey: string | null;
}

/**
 * Applies a `connector.status_changed` that happened `at` (unless an older one than the last applied): a new
 * connector is due at once; one connected again is due at once too unless its next run is still ahead.
 */
export const APPLY_STATUS = sqlStatement<StatusValues>(
  (p) => `
  INSERT INTO sync_connector AS c (connector_id, account_id, active, status_changed_at, next_run_at, system_key)
  VALUES (${p.connectorId}, ${p.accountId}, ${p.active}, ${p.at}, clock_timestamp(), ${p.systemKey})
  ON CONFLICT (connector_id) DO UPDATE
  SET active = EXCLUDED.active,
      status_changed_at = EXCLUDED.status_changed_at,
      system_key = coalesce(EXCLUDED.system_key, c.system_key),
      next_run_at = CASE WHEN EXCLUDED.active AND NOT c.active
                         THEN greatest(c.next_run_at, clock_timestamp()) ELSE c.next_run_at END
  WHERE c.status_changed_at IS NULL OR c.status_changed_at <= EXCLUDED.status_changed_at
  RETURNING connector_id`,
).withRow({ connector_id: 'string' });

/** What APPLY_OPTIONS takes: the connector's options as of `version`, as `scheduleForOptions` reads them. */
export interface OptionsValues {
  connectorId: string;
  version: number;
  intervalSeconds: number;
  nextRunAt: Date;
  pollSeconds: number;
  nextReadAt: Date;
}

/**
 * A connector's options changed (`connector.changed`, version `version`): its run interval and its event feed's
 * poll period are set from them at once, unless a newer version was applied already. A period that changed
 * brings the next run or read forward to `nextRunAt` / `nextReadAt` (never later than it was: a longer period
 * starts after the next one). Answers whether it applied (a connector vacancy-sync does not schedule: no row).
 */
export const APPLY_OPTIONS = sqlStatement<OptionsValues>(
  (p) => `
  WITH applied AS (
    UPDATE sync_connector
    SET options_version = ${p.version}, interval_seconds = ${p.intervalSeconds}::int,
        next_run_at = CASE WHEN interval_seconds <> ${p.intervalSeconds}::int
                           THEN least(next_run_at, ${p.nextRunAt}::timestamptz) ELSE next_run_at END
    WHERE connector_id = ${p.connectorId} AND options_version < ${p.version}
    RETURNING connector_id
  ),
  feed AS (
    UPDATE vacancy_event_feed
    SET poll_seconds = ${p.pollSeconds}::int,
        next_read_at = CASE WHEN poll_seconds <> ${p.pollSeconds}::int
                            THEN least(next_read_at, ${p.nextReadAt}::timestamptz) ELSE next_read_at END
    WHERE connector_id = (SELECT connector_id FROM applied)
  )
  SELECT EXISTS (SELECT 1 FROM applied) AS applied`,
).withRow({ applied: 'boolean' });
