import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import {
  booleanColumn,
  preparedStatements,
  type SqlQueryable,
  type SqlStatement,
  sqlStatement,
  textColumn,
} from '@connector/persistence';
import type { PublishedState } from './vacancy-diff';

/** The published states of a connector's vacancies. */
const PUBLISHED = sqlStatement<{ connectorId: string; externalIds: string[] }>(
  (p) => `
  SELECT external_id, content_hash, live FROM vacancy_state
  WHERE connector_id = ${p.connectorId} AND external_id = ANY(${p.externalIds}::text[])`,
);

/** Up to `limit` of a connector's live vacancies whose last advertised day is before `today`. */
const EXPIRED = sqlStatement<{ connectorId: string; today: string; limit: number }>(
  (p) => `
  SELECT external_id FROM vacancy_state
  WHERE connector_id = ${p.connectorId} AND live AND live_until < ${p.today}::date
  ORDER BY external_id LIMIT ${p.limit}`,
);

/** Up to `limit` of a connector's live vacancies that run `runId` did not see. */
const NOT_SEEN = sqlStatement<{ connectorId: string; runId: string; limit: number }>(
  (p) => `
  SELECT external_id FROM vacancy_state
  WHERE connector_id = ${p.connectorId} AND live AND last_seen_run <> ${p.runId}
  ORDER BY external_id LIMIT ${p.limit}`,
);

/**
 * The reads of `vacancy_state` (prepared: every run reads them). A run's step writes its marks together with
 * its progress, in one statement with the lease check (SyncRunRepository.commitStep).
 */
@Injectable()
export class VacancyStateRepository {
  private readonly sql: SqlQueryable;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.sql = preparedStatements(dataSource);
  }

  async published(connectorId: string, externalIds: string[]): Promise<Map<string, PublishedState>> {
    if (externalIds.length === 0) return new Map();
    const rows = await PUBLISHED.rows(this.sql, { connectorId, externalIds });
    return new Map(
      rows.map((row) => [
        textColumn(row, 'external_id'),
        { contentHash: textColumn(row, 'content_hash'), live: booleanColumn(row, 'live') },
      ]),
    );
  }

  /** Up to `limit` vacancies live on the platform whose last advertised day is before `today` (YYYY-MM-DD). */
  async expired(connectorId: string, today: string, limit: number): Promise<string[]> {
    return this.externalIds(EXPIRED, { connectorId, today, limit });
  }

  /** Up to `limit` vacancies live on the platform that the (complete, full) run `runId` did not see. */
  async notSeenBy(connectorId: string, runId: string, limit: number): Promise<string[]> {
    return this.externalIds(NOT_SEEN, { connectorId, runId, limit });
  }

  private async externalIds<P extends object>(statement: SqlStatement<P>, values: P): Promise<string[]> {
    return (await statement.rows(this.sql, values)).map((row) => textColumn(row, 'external_id'));
  }
}
