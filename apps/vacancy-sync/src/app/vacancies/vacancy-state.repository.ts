import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import {
  booleanColumn,
  preparedStatements,
  rowsOf,
  type SqlQueryable,
  textColumn,
} from '@connector/persistence';
import type { PublishedState } from './vacancy-diff';

/** The published states of connector `$1`'s vacancies `$2`. */
const PUBLISHED_SQL = `
  SELECT external_id, content_hash, live FROM vacancy_state
  WHERE connector_id = $1 AND external_id = ANY($2::text[])`;

/** Up to `$3` of connector `$1`'s live vacancies whose last advertised day is before `$2`. */
const EXPIRED_SQL = `
  SELECT external_id FROM vacancy_state
  WHERE connector_id = $1 AND live AND live_until < $2::date
  ORDER BY external_id LIMIT $3`;

/** Up to `$3` of connector `$1`'s live vacancies that run `$2` did not see. */
const NOT_SEEN_SQL = `
  SELECT external_id FROM vacancy_state
  WHERE connector_id = $1 AND live AND last_seen_run <> $2
  ORDER BY external_id LIMIT $3`;

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
    const rows = rowsOf(await this.sql.query(PUBLISHED_SQL, [connectorId, externalIds]));
    return new Map(
      rows.map((row) => [
        textColumn(row, 'external_id'),
        { contentHash: textColumn(row, 'content_hash'), live: booleanColumn(row, 'live') },
      ]),
    );
  }

  /** Up to `limit` vacancies live on the platform whose last advertised day is before `today` (YYYY-MM-DD). */
  async expired(connectorId: string, today: string, limit: number): Promise<string[]> {
    return this.externalIds(EXPIRED_SQL, [connectorId, today, limit]);
  }

  /** Up to `limit` vacancies live on the platform that the (complete, full) run `runId` did not see. */
  async notSeenBy(connectorId: string, runId: string, limit: number): Promise<string[]> {
    return this.externalIds(NOT_SEEN_SQL, [connectorId, runId, limit]);
  }

  private async externalIds(sql: string, params: unknown[]): Promise<string[]> {
    return rowsOf(await this.sql.query(sql, params)).map((row) => textColumn(row, 'external_id'));
  }
}
