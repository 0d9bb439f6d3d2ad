import { sqlStatement } from '@connector/persistence';

/** Counted at most once per event: the event's id goes in first, the count follows only for a new one. */
export const RECORD_WRITTEN = sqlStatement<{ eventId: string; connectorId: string; day: string }>(
  (p) => `
WITH fresh AS (
  INSERT INTO connector_activity_event (event_id, connector_id, day) VALUES (${p.eventId}, ${p.connectorId}, ${p.day}::date)
  ON CONFLICT (event_id) DO NOTHING
  RETURNING connector_id, day
)
INSERT INTO connector_activity AS a (connector_id, day, records_written)
SELECT connector_id, day, 1 FROM fresh
ON CONFLICT (connector_id, day) DO UPDATE SET records_written = a.records_written + 1
RETURNING (xmax = 0) AS first_of_day`,
).withRow({ first_of_day: 'boolean' });

/** The ids of the connector's events too old to be redelivered (15 days before `day`). */
export const PRUNE_EVENTS = sqlStatement<{ connectorId: string; day: string }>(
  (p) =>
    `DELETE FROM connector_activity_event WHERE connector_id = ${p.connectorId} AND day < ${p.day}::date - 15`,
);

/**
 * The connector's last `days` UTC days, one row each: runs that ended that day (calls, vacancies published,
 * failed runs: the runs kept, plus the totals of those the retention job deleted), records written, and its
 * dead letters. The connector id is compared as uuid with the runs (so the run index serves) and as text with
 * the dead letters, of its account only: a dead letter names the connector its message named, and only the
 * account's own count (another account's message may name any id).
 */
export const ACTIVITY_DAYS = sqlStatement<{ connectorId: string; days: number; accountId: string }>(
  (p) => `
WITH days AS (
  SELECT generate_series((now() AT TIME ZONE 'UTC')::date - (${p.days}::int - 1), (now() AT TIME ZONE 'UTC')::date,
                         interval '1 day')::date AS day
), runs AS (
  SELECT (finished_at AT TIME ZONE 'UTC')::date AS day,
         sum(api_calls)::int AS api_calls,
         sum(coalesce((counts->>'upserted')::int, 0) + coalesce((counts->>'closed')::int, 0))::int AS published,
         (count(*) FILTER (WHERE status = 'failed'))::int AS failed_runs
    FROM run
   WHERE connector_id = ${p.connectorId}::uuid AND finished_at >= (SELECT min(day) FROM days)
   GROUP BY 1
), dead AS (
  SELECT (failed_at AT TIME ZONE 'UTC')::date AS day, count(*)::int AS n
    FROM dead_letter
   WHERE connector_id = ${p.connectorId}::text AND account_id = ${p.accountId}::text AND failed_at >= (SELECT min(day) FROM days)
   GROUP BY 1
)
SELECT to_char(days.day, 'YYYY-MM-DD') AS day,
       coalesce(runs.api_calls, 0) + coalesce(a.deleted_runs_api_calls, 0) AS api_calls,
       coalesce(runs.published, 0) + coalesce(a.deleted_runs_published, 0) AS published,
       coalesce(a.records_written, 0) AS records_written,
       coalesce(runs.failed_runs, 0) + coalesce(a.deleted_runs_failed, 0) + coalesce(dead.n, 0) AS failures
  FROM days
  LEFT JOIN runs ON runs.day = days.day
  LEFT JOIN dead ON dead.day = days.day
  LEFT JOIN connector_activity AS a ON a.connector_id = ${p.connectorId}::text AND a.day = days.day
 ORDER BY days.day`,
).withRow({
  day: 'string',
  api_calls: 'number',
  published: 'number',
  records_written: 'number',
  failures: 'number',
});
