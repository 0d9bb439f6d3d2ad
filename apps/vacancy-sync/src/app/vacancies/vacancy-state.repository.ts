import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  Any,
  type DataSource,
  type EntityManager,
  type FindOptionsWhere,
  LessThan,
  Not,
  type Repository,
} from 'typeorm';
import type { PublishedState } from './vacancy-diff';
import { VacancyStateEntity } from './vacancy-state.entity';

/**
 * A page's vacancies in one statement, however many (three arrays, not a parameter per value): published
 * and seen by the run; `updated_at` moves only when the content or liveness changed, which the query
 * builder's upsert cannot say. $1 connector, $2 run, $3 external ids, $4 hashes, $5 last advertised days.
 */
const MARK_SEEN_SQL = `
INSERT INTO vacancy_state (connector_id, external_id, content_hash, live, last_seen_run, live_until, updated_at)
SELECT $1, v.external_id, v.content_hash, true, $2, v.live_until, now()
  FROM unnest($3::text[], $4::text[], $5::date[]) AS v(external_id, content_hash, live_until)
ON CONFLICT (connector_id, external_id) DO UPDATE
  SET content_hash = EXCLUDED.content_hash, live = true, last_seen_run = EXCLUDED.last_seen_run,
      live_until = EXCLUDED.live_until,
      updated_at = CASE WHEN vacancy_state.content_hash = EXCLUDED.content_hash AND vacancy_state.live
                        THEN vacancy_state.updated_at ELSE now() END`;

/** Every read and write of `vacancy_state`. */
@Injectable()
export class VacancyStateRepository {
  private readonly states: Repository<VacancyStateEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.states = dataSource.getRepository(VacancyStateEntity);
  }

  async published(connectorId: string, externalIds: string[]): Promise<Map<string, PublishedState>> {
    if (externalIds.length === 0) return new Map();
    const rows = await this.states.find({
      select: { externalId: true, contentHash: true, live: true },
      where: { connectorId, externalId: Any(externalIds) },
    });
    return new Map(rows.map((row) => [row.externalId, { contentHash: row.contentHash, live: row.live }]));
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
    await m.query(MARK_SEEN_SQL, [
      connectorId,
      runId,
      vacancies.map((v) => v.externalId),
      vacancies.map((v) => v.contentHash),
      vacancies.map((v) => liveUntil.get(v.externalId) ?? null),
    ]);
  }

  /** Up to `limit` vacancies live on the platform whose last advertised day is before `today` (YYYY-MM-DD). */
  async expired(connectorId: string, today: string, limit: number): Promise<string[]> {
    return this.liveIds(connectorId, { liveUntil: LessThan(today) }, limit);
  }

  /** Up to `limit` vacancies live on the platform that the (complete, full) run `runId` did not see. */
  async notSeenBy(connectorId: string, runId: string, limit: number): Promise<string[]> {
    return this.liveIds(connectorId, { lastSeenRun: Not(runId) }, limit);
  }

  async markClosed(m: EntityManager, connectorId: string, externalIds: string[]): Promise<void> {
    await m
      .getRepository(VacancyStateEntity)
      .update({ connectorId, externalId: Any(externalIds) }, { live: false });
  }

  private async liveIds(
    connectorId: string,
    where: FindOptionsWhere<VacancyStateEntity>,
    limit: number,
  ): Promise<string[]> {
    const rows = await this.states.find({
      select: { externalId: true },
      where: { ...where, connectorId, live: true },
      order: { externalId: 'ASC' },
      take: limit,
    });
    return rows.map((row) => row.externalId);
  }
}
