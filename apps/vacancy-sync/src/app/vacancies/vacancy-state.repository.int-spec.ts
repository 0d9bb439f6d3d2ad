import type { DataSource } from 'typeorm';
import { migratedDataSource } from '@connector/persistence/testing';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { SyncRunRepository } from '../runs/sync-run.repository';
import { SERVICE_NAME } from '../vacancy-sync.config';
import { VACANCY_SYNC_SCHEMA } from '../vacancy-sync.schema';
import { VacancyStateRepository } from './vacancy-state.repository';

describe(VacancyStateRepository.name, () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let sut: VacancyStateRepository;
  let runs: SyncRunRepository;

  beforeAll(async () => {
    database = await createTestDatabase('vacancy_states');
    dataSource = await migratedDataSource(database.url, { service: SERVICE_NAME, ...VACANCY_SYNC_SCHEMA });
    sut = new VacancyStateRepository(dataSource);
    runs = new SyncRunRepository(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const lease = { owner: 'spec', ttlMs: 60_000 };
  /** A step of run `runId` of `connectorId` (held by this spec) that saw `seen` and closed `closed`. */
  const commit = async (
    connectorId: string,
    runId: string,
    seen: Array<{ externalId: string; contentHash: string }>,
    options: { liveUntil?: Map<string, string>; closed?: string[] } = {},
  ) => {
    await runs.registerConnector(connectorId, 'acct');
    await runs.enqueue({ runId, connectorId, accountId: 'acct', trigger: 'requested' });
    await runs.tryLease(connectorId, lease.owner, lease.ttlMs);
    await runs.commitStep(runId, lease, { seen, ...options, delta: {} });
  };

  const updatedAt = async (externalId: string): Promise<Date> => {
    const [row] = (await dataSource.query(`SELECT updated_at FROM vacancy_state WHERE external_id = $1`, [
      externalId,
    ])) as Array<{ updated_at: Date }>;
    return row.updated_at;
  };

  it('records a page in one statement; updated_at moves only when content or liveness changed', async () => {
    await commit(
      'c1',
      'run-1',
      [
        { externalId: 'v1', contentHash: 'h1' },
        { externalId: 'v2', contentHash: 'h2' },
      ],
      { liveUntil: new Map([['v2', '2026-03-01']]) },
    );
    expect(await sut.published('c1', ['v1', 'v2', 'v3'])).toEqual(
      new Map([
        ['v1', { contentHash: 'h1', live: true }],
        ['v2', { contentHash: 'h2', live: true }],
      ]),
    );
    const [v1Before, v2Before] = [await updatedAt('v1'), await updatedAt('v2')];

    await new Promise((resolve) => setTimeout(resolve, 20));
    await commit('c1', 'run-2', [
      { externalId: 'v1', contentHash: 'h1' },
      { externalId: 'v2', contentHash: 'h2-changed' },
    ]);
    expect(await updatedAt('v1')).toEqual(v1Before);
    expect((await updatedAt('v2')).getTime()).toBeGreaterThan(v2Before.getTime());
    expect(await sut.published('c1', [])).toEqual(new Map());
  });

  it('finds what a run did not see and what is past its last day, and closes them', async () => {
    await commit(
      'c2',
      'c2-run-1',
      [
        { externalId: 'a', contentHash: 'h' },
        { externalId: 'b', contentHash: 'h' },
        { externalId: 'c', contentHash: 'h' },
      ],
      {
        liveUntil: new Map([
          ['a', '2026-01-01'],
          ['b', '2026-12-31'],
        ]),
      },
    );
    await commit('c2', 'c2-run-2', [{ externalId: 'b', contentHash: 'h' }]);

    expect(await sut.notSeenBy('c2', 'c2-run-2', 10)).toEqual(['a', 'c']);
    expect(await sut.notSeenBy('c2', 'c2-run-2', 1)).toEqual(['a']);
    expect(await sut.expired('c2', '2026-06-01', 10)).toEqual(['a']);

    const before = await updatedAt('c');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await commit('c2', 'c2-run-2', [], { closed: ['a', 'c'] });
    expect(await sut.notSeenBy('c2', 'c2-run-2', 10)).toEqual([]);
    expect(await sut.expired('c2', '2026-06-01', 10)).toEqual([]);
    expect((await sut.published('c2', ['a'])).get('a')).toEqual({ contentHash: 'h', live: false });
    expect((await updatedAt('c')).getTime()).toBeGreaterThan(before.getTime());

    // Seen again: live again, and its updated_at moves.
    await commit('c2', 'c2-run-3', [{ externalId: 'a', contentHash: 'h' }]);
    expect((await sut.published('c2', ['a'])).get('a')).toEqual({ contentHash: 'h', live: true });
  });
});
