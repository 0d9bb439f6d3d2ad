import type { DataSource } from 'typeorm';
import { purge } from '@connector/persistence';
import { migratedDataSource } from '@connector/persistence/testing';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { SERVICE_NAME } from '../vacancy-sync.config';
import { VACANCY_SYNC_SCHEMA } from '../vacancy-sync.schema';
import { closedVacancyRetention } from './closed-vacancy-retention';
import { VacancyStateRepository } from './vacancy-state.repository';

describe('closed vacancy retention', () => {
  let database: TestDatabase;
  let db: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('closed_vacancies');
    db = await migratedDataSource(database.url, { service: SERVICE_NAME, ...VACANCY_SYNC_SCHEMA });
  });

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('lets go of vacancies closed long ago, never of live ones however old', async () => {
    const state = (id: string, live: boolean, ageDays: number) =>
      db.query(
        `INSERT INTO vacancy_state (connector_id, external_id, content_hash, live, last_seen_run, updated_at)
         VALUES ('c1', $1, 'h', $2, 'run-1', now() - make_interval(days => $3))`,
        [id, live, ageDays],
      );
    await state('closed-long-ago', false, 31);
    await state('closed-lately', false, 29);
    await state('live-unchanged-for-long', true, 400);

    expect(await purge(db, closedVacancyRetention(30), new Date())).toBe(1);
    const states = new VacancyStateRepository(db);
    const known = await states.published('c1', [
      'closed-long-ago',
      'closed-lately',
      'live-unchanged-for-long',
    ]);
    // The one gone reads as never published: should it come back live, it is published again, as a closed one is.
    expect([...known.keys()].sort()).toEqual(['closed-lately', 'live-unchanged-for-long']);
  });
});
