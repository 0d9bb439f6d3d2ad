import type { RetentionRule } from '@connector/persistence';
import { ACTIVITY_DAYS } from '../activity/activity.service';

/** A connector's days of activity stay this long: the 14 the admin page shows, and the day under way. */
const ACTIVITY_KEEP_DAYS = ACTIVITY_DAYS + 1;

/**
 * The runs a trim deletes (`gone`) that ended within the activity window, added to their connector's day:
 * the admin page's 14 days of activity count them from there once the runs are gone (ActivityRepository).
 */
const FOLD_INTO_ACTIVITY = `
INSERT INTO "connector_activity" AS a
  ("connector_id", "day", "deleted_runs_api_calls", "deleted_runs_published", "deleted_runs_failed")
SELECT "connector_id"::text, ("finished_at" AT TIME ZONE 'UTC')::date, sum("api_calls")::int,
       sum(coalesce(("counts"->>'upserted')::int, 0) + coalesce(("counts"->>'closed')::int, 0))::int,
       (count(*) FILTER (WHERE "status" = 'failed'))::int
  FROM gone
 WHERE "finished_at" >= now() - make_interval(days => ${ACTIVITY_KEEP_DAYS})
 GROUP BY 1, 2
ON CONFLICT ("connector_id", "day") DO UPDATE SET
  "deleted_runs_api_calls" = a."deleted_runs_api_calls" + EXCLUDED."deleted_runs_api_calls",
  "deleted_runs_published" = a."deleted_runs_published" + EXCLUDED."deleted_runs_published",
  "deleted_runs_failed" = a."deleted_runs_failed" + EXCLUDED."deleted_runs_failed"`;

/** Connectors deleted before the cutoff; as text, the type of `dead_letter.connector_id` (any string). */
const deletedBefore = (asText: boolean) =>
  `(SELECT "id"${asText ? '::text' : ''} FROM "connector" WHERE "deleted_at" < $1)`;

/**
 * What connector-registry deletes once kept long enough: the failure log's entries and finished erasure
 * records after DEAD_LETTER_RETENTION_DAYS; a deleted connector, its mapping versions, runs and failures
 * after DELETED_CONNECTOR_RETENTION_DAYS (the connector row last: the others refer to it); every connector's
 * run history beyond RUN_HISTORY_PER_CONNECTOR runs or RUN_HISTORY_DAYS days, but its newest run (the
 * connector's "last run") and a queued or running one; the totals of the runs it deletes go to their day's
 * activity, whose days go after the 14 the admin page shows.
 */
export function registryRetention(config: {
  DEAD_LETTER_RETENTION_DAYS: number;
  DELETED_CONNECTOR_RETENTION_DAYS: number;
  RUN_HISTORY_DAYS: number;
  RUN_HISTORY_PER_CONNECTOR: number;
}): RetentionRule[] {
  const failures = config.DEAD_LETTER_RETENTION_DAYS;
  const deleted = config.DELETED_CONNECTOR_RETENTION_DAYS;
  return [
    {
      name: `runs beyond ${config.RUN_HISTORY_PER_CONNECTOR} a connector or older than ${config.RUN_HISTORY_DAYS} days`,
      table: 'run',
      owners: { table: 'connector', key: 'id' },
      ownerColumn: 'connector_id',
      timeColumn: 'queued_at',
      where: `"status" NOT IN ('queued', 'running')`,
      keepNewest: config.RUN_HISTORY_PER_CONNECTOR,
      keepDays: config.RUN_HISTORY_DAYS,
      fold: FOLD_INTO_ACTIVITY,
    },
    {
      name: `activity older than ${ACTIVITY_KEEP_DAYS} days`,
      table: 'connector_activity',
      where: `"day" < $1`,
      keepDays: ACTIVITY_KEEP_DAYS,
    },
    {
      name: `dead letters older than ${failures} days`,
      table: 'dead_letter',
      where: `"failed_at" < $1`,
      keepDays: failures,
    },
    {
      name: `candidate erasures completed more than ${failures} days ago`,
      table: 'candidate_erasure',
      where: `"completed_at" < $1`,
      keepDays: failures,
    },
    ...['dead_letter', 'job_mapping', 'run'].map((table) => ({
      name: `${table} of connectors deleted more than ${deleted} days ago`,
      table,
      where: `"connector_id" IN ${deletedBefore(table === 'dead_letter')}`,
      keepDays: deleted,
    })),
    {
      // A window lasts a minute; a day-old row counts nothing.
      name: 'wrong admin key windows over a day old',
      table: 'admin_key_failure',
      where: `"window_started_at" < $1`,
      keepDays: 1,
    },
    {
      name: `connectors deleted more than ${deleted} days ago`,
      table: 'connector',
      where: `"deleted_at" < $1`,
      keepDays: deleted,
    },
  ];
}
