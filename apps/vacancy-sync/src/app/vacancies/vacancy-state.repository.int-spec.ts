import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '@connector/persistence';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { SERVICE_NAME } from '../vacancy-sync.config';
import { VACANCY_SYNC_SCHEMA } from '../vacancy-sync.schema';
import { VacancyStateRepository } from './vacancy-state.repository';

describe(VacancyStateRepository.name, () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let sut: VacancyStateRepository;

  beforeAll(async () => {
    database = await createTestDatabase('vacancy_states');
    dataSource = await new DataSource(
      dataSourceOptions({ url: database.url, service: SERVICE_NAME, ...VACANCY_SYNC_SCHEMA }),
    ).initialize();
    await runMigrations(dataSource, VACANCY_SYNC_SCHEMA.shared);
    sut = new VacancyStateRepository(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const updatedAt = async (externalId: string): Promise<Date> => {
    const [row] = (await dataSource.query(`SELECT updated_at FROM vacancy_state WHERE external_id = $1`, [
      externalId,
    ])) as Array<{ updated_at: Date }>;
    return row.updated_at;
  };

  it('records a page in one statement; updated_at moves only when content or liveness changed', async () => {
    await sut.markSeen(
      dataSource.manager,
      'c1',
      'run-1',
      [
        { externalId: 'v1', contentHash: 'h1' },
        { externalId: 'v2', contentHash: 'h2' },
      ],
      new Map([['v2', '2026-03-01']]),
    );
    expect(await sut.published('c1', ['v1', 'v2', 'v3'])).toEqual(
      new Map([
        ['v1', { contentHash: 'h1', live: true }],
        ['v2', { contentHash: 'h2', live: true }],
      ]),
    );
    const [v1Before, v2Before] = [await updatedAt('v1'), await updatedAt('v2')];

    await new Promise((resolve) => setTimeout(resolve, 20));
    await sut.markSeen(dataSource.manager, 'c1', 'run-2', [
      { externalId: 'v1', contentHash: 'h1' },
      { externalId: 'v2', contentHash: 'h2-changed' },
    ]);
    expect(await updatedAt('v1')).toEqual(v1Before);
    expect((await updatedAt('v2')).getTime()).toBeGreaterThan(v2Before.getTime());
    expect(await sut.published('c1', [])).toEqual(new Map());
  });

  it('finds what a run did not see and what is past its last day, and closes them', async () => {
    await sut.markSeen(
      dataSource.manager,
      'c2',
      'run-1',
      [
        { externalId: 'a', contentHash: 'h' },
        { externalId: 'b', contentHash: 'h' },
        { externalId: 'c', contentHash: 'h' },
      ],
      new Map([
        ['a', '2026-01-01'],
        ['b', '2026-12-31'],
      ]),
    );
    await sut.markSeen(dataSource.manager, 'c2', 'run-2', [{ externalId: 'b', contentHash: 'h' }]);

    expect(await sut.notSeenBy('c2', 'run-2', 10)).toEqual(['a', 'c']);
    expect(await sut.notSeenBy('c2', 'run-2', 1)).toEqual(['a']);
    expect(await sut.expired('c2', '2026-06-01', 10)).toEqual(['a']);

    const before = await updatedAt('c');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await sut.markClosed(dataSource.manager, 'c2', ['a', 'c']);
    expect(await sut.notSeenBy('c2', 'run-2', 10)).toEqual([]);
    expect(await sut.expired('c2', '2026-06-01', 10)).toEqual([]);
    expect((await sut.published('c2', ['a'])).get('a')).toEqual({ contentHash: 'h', live: false });
    expect((await updatedAt('c')).getTime()).toBeGreaterThan(before.getTime());

    // Seen again: live again, and its updated_at moves.
    await sut.markSeen(dataSource.manager, 'c2', 'run-3', [{ externalId: 'a', contentHash: 'h' }]);
    expect((await sut.published('c2', ['a'])).get('a')).toEqual({ contentHash: 'h', live: true });
  });
});
