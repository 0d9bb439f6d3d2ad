import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ACTIVITY_DAYS, PRUNE_EVENTS, RECORD_WRITTEN } from './activity.sql';
import type { ActivityDayView } from './activity.view';

/** A connector's work per day. Hand-written SQL: one statement each, kept with its test. */
@Injectable()
export class ActivityRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** One record written on `day`, counted once however often the event `eventId` arrives. */
  async recordWritten(eventId: string, connectorId: string, day: string): Promise<void> {
    const [row] = await RECORD_WRITTEN.rows(this.dataSource, { eventId, connectorId, day });
    // Once a day per connector: forget the ids of events too old to be redelivered.
    if (row?.first_of_day) await PRUNE_EVENTS.rows(this.dataSource, { connectorId, day });
  }

  /** The last `count` days of the connector `connectorId` of the account `accountId`. */
  async days(accountId: string, connectorId: string, count: number): Promise<ActivityDayView[]> {
    const rows = await ACTIVITY_DAYS.rows(this.dataSource, { connectorId, days: count, accountId });
    return rows.map((row) => ({
      day: row.day,
      apiCalls: row.api_calls,
      vacanciesPublished: row.published,
      recordsWritten: row.records_written,
      failures: row.failures,
    }));
  }
}
