import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { booleanColumn, numberColumn, rowsOf, textColumn } from '@connector/persistence';
import type { ActivityDayView } from './activity.view';

/** Counted at most once per event: the event's id goes in first, the count follows only for a new one. */
const RECORD_WRITTEN_SQL = `
WITH fresh AS (
  INSERT INTO connector_activity_event (event_id, connector_id, day) VALUES ($1, $2, $3::date)
  ON CONFLICT (event_id) DO NOTHING
  RETURNING connector_id, day
)
INSERT INTO connector_activity AS a (connector_id, day, records_written)
SELECT connector_id, day, 1 FROM fresh
ON CONFLICT (connector_id, day) DO UPDATE SET records_written = a.records_written + 1
RETURNING (xmax = 0) AS first_of_day`;

const PRUNE_SQL = `DELETE FROM connector_activity_event WHERE connector_id = $1 AND day < $2::date - 15`;

/**
 * The connector's last `$2` UTC days, one row each: runs that ended that day (calls, vacancies published,
 * failed runs: the runs kept, plus the totals of those the retention job deleted), records written, and its
 * dead letters. $1 connector id, $2 days, $3 the id again (as uuid,
 * so the run index serves), $4 its account: a dead letter names the connector its message named, and only
 * the account's own count (another account's message may name any id).
 */
const DAYS_SQL = `
WITH days AS (
  SELECT generate_series((now() AT TIME ZONE 'UTC')::date - ($2::int - 1), (now() AT TIME ZONE 'UTC')::date,
                         interval '1 day')::date AS day
), runs AS (
  SELECT (finished_at AT TIME ZONE 'UTC')::date AS day,
         sum(api_calls)::int AS api_calls,
         sum(coalesce((counts->>'upserted')::int, 0) + coalesce((counts->>'closed')::int, 0))::int AS published,
         (count(*) FILTER (WHERE status = 'failed'))::int AS failed_runs
    FROM run
   WHERE connector_id = $3::uuid AND finished_at >= (SELECT min(day) FROM days)
   GROUP BY 1
), dead AS (
  SELECT (failed_at AT TIME ZONE 'UTC')::date AS day, count(*)::int AS n
    FROM dead_letter
   WHERE connector_id = $1::text AND account_id = $4::text AND failed_at >= (SELECT min(day) FROM days)
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
  LEFT JOIN connector_activity AS a ON a.connector_id = $1::text AND a.day = days.day
 ORDER BY days.day`;

/** A connector's work per day. Hand-written SQL: one statement each, kept with its test. */
@Injectable()
export class ActivityRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** One record written on `day`, counted once however often the event `eventId` arrives. */
  async recordWritten(eventId: string, connectorId: string, day: string): Promise<void> {
    const [row] = rowsOf(await this.dataSource.query(RECORD_WRITTEN_SQL, [eventId, connectorId, day]));
    // Once a day per connector: forget the ids of events too old to be redelivered.
    if (row && booleanColumn(row, 'first_of_day')) await this.dataSource.query(PRUNE_SQL, [connectorId, day]);
  }

  /** The last `count` days of the connector `connectorId` of the account `accountId`. */
  async days(accountId: string, connectorId: string, count: number): Promise<ActivityDayView[]> {
    const rows = rowsOf(await this.dataSource.query(DAYS_SQL, [connectorId, count, connectorId, accountId]));
    return rows.map((row) => ({
      day: textColumn(row, 'day'),
      apiCalls: numberColumn(row, 'api_calls'),
      vacanciesPublished: numberColumn(row, 'published'),
      recordsWritten: numberColumn(row, 'records_written'),
      failures: numberColumn(row, 'failures'),
    }));
  }
}
