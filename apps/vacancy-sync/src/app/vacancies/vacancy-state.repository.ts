import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { preparedStatements, type SqlQueryable, type SqlStatement } from '@connector/persistence';
import type { PublishedState } from './vacancy-diff';
import { EXPIRED, NOT_SEEN, PUBLISHED } from './vacancy-state.sql';

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
    return new Map(rows.map((row) => [row.external_id, { contentHash: row.content_hash, live: row.live }]));
  }

  /** Up to `limit` vacancies live on the platform whose last advertised day is before `today` (YYYY-MM-DD). */
  async expired(connectorId: string, today: string, limit: number): Promise<string[]> {
    return this.externalIds(EXPIRED, { connectorId, today, limit });
  }

  /** Up to `limit` vacancies live on the platform that the (complete, full) run `runId` did not see. */
  async notSeenBy(connectorId: string, runId: string, limit: number): Promise<string[]> {
    return this.externalIds(NOT_SEEN, { connectorId, runId, limit });
  }

  private async externalIds<P extends object>(
    statement: SqlStatement<P, { external_id: string }>,
    values: P,
  ): Promise<string[]> {
    return (await statement.rows(this.sql, values)).map((row) => row.external_id);
  }
}
