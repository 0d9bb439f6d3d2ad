import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { rowsOf } from '../common/sql-rows';
import type { PublishedState } from './vacancy-diff';

/**
 * `vacancy_state`: per vacancy the content hash last published, whether it is live on the platform, and the
 * last run that saw it live. Closing compares `last_seen_run` with the run, so no run holds ids in memory.
 */
@Injectable()
export class VacancyStateRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async published(connectorId: string, externalIds: string[]): Promise<Map<string, PublishedState>> {
    if (externalIds.length === 0) return new Map();
    const rows = rowsOf(
      await this.db.query(
        `SELECT external_id, content_hash, live FROM vacancy_state
          WHERE connector_id = $1 AND external_id = ANY($2::text[])`,
        [connectorId, externalIds],
      ),
    );
    return new Map(
      rows.map((row) => [
        String(row.external_id),
        { contentHash: String(row.content_hash), live: row.live === true },
      ]),
    );
  }

  /**
   * Records a page's live vacancies as published and seen by `runId` (inside the page's transaction), with the
   * last day each is advertised (`liveUntil`, null when open-ended).
   */
  async markSeen(
    m: EntityManager,
    connectorId: string,
    runId: string,
    vacancies: Array<{ externalId: string; contentHash: string }>,
    liveUntil: ReadonlyMap<string, string> = new Map(),
  ): Promise<void> {
    if (vacancies.length === 0) return;
    await m.query(
      `INSERT INTO vacancy_state (connector_id, external_id, content_hash, live, last_seen_run, live_until, updated_at)
       SELECT $1, v.external_id, v.content_hash, true, $2, v.live_until, now()
         FROM unnest($3::text[], $4::text[], $5::date[]) AS v(external_id, content_hash, live_until)
       ON CONFLICT (connector_id, external_id) DO UPDATE
         SET content_hash = EXCLUDED.content_hash, live = true, last_seen_run = EXCLUDED.last_seen_run,
             live_until = EXCLUDED.live_until,
             updated_at = CASE WHEN vacancy_state.content_hash = EXCLUDED.content_hash AND vacancy_state.live
                               THEN vacancy_state.updated_at ELSE now() END`,
      [
        connectorId,
        runId,
        vacancies.map((v) => v.externalId),
        vacancies.map((v) => v.contentHash),
        vacancies.map((v) => liveUntil.get(v.externalId) ?? null),
      ],
    );
  }

  /** Up to `limit` vacancies live on the platform whose last advertised day is before `today` (YYYY-MM-DD). */
  async expired(connectorId: string, today: string, limit: number): Promise<string[]> {
    const rows = rowsOf(
      await this.db.query(
        `SELECT external_id FROM vacancy_state
          WHERE connector_id = $1 AND live AND live_until < $2::date
          ORDER BY external_id LIMIT $3`,
        [connectorId, today, limit],
      ),
    );
    return rows.map((row) => String(row.external_id));
  }

  /** Up to `limit` vacancies live on the platform that the (complete, full) run `runId` did not see. */
  async notSeenBy(connectorId: string, runId: string, limit: number): Promise<string[]> {
    const rows = rowsOf(
      await this.db.query(
        `SELECT external_id FROM vacancy_state
          WHERE connector_id = $1 AND live AND last_seen_run <> $2
          ORDER BY external_id LIMIT $3`,
        [connectorId, runId, limit],
      ),
    );
    return rows.map((row) => String(row.external_id));
  }

  async markClosed(m: EntityManager, connectorId: string, externalIds: string[]): Promise<void> {
    await m.query(
      `UPDATE vacancy_state SET live = false, updated_at = now()
        WHERE connector_id = $1 AND external_id = ANY($2::text[])`,
      [connectorId, externalIds],
    );
  }
}
