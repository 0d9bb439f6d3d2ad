import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '@connector/persistence';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { SERVICE_NAME } from '../vacancy-sync.config';
import { VACANCY_SYNC_SCHEMA } from '../vacancy-sync.schema';
import { RunLeaseLostError } from './run-lease-lost.error';
import { type NewRun, SyncRunRepository } from './sync-run.repository';

describe(SyncRunRepository.name, () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let sut: SyncRunRepository;
  let seq = 0;
  const nextId = (prefix: string) => `${prefix}-${++seq}`;
  const newRun = (connectorId: string, overrides: Partial<NewRun> = {}): NewRun => ({
    runId: nextId('run'),
    connectorId,
    accountId: 'acct',
    trigger: 'requested',
    ...overrides,
  });

  beforeAll(async () => {
    database = await createTestDatabase('sync_runs');
    dataSource = await new DataSource(
      dataSourceOptions({ url: database.url, service: SERVICE_NAME, ...VACANCY_SYNC_SCHEMA }),
    ).initialize();
    await runMigrations(dataSource, VACANCY_SYNC_SCHEMA.shared);
    sut = new SyncRunRepository(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('records a run request once, and finds it as its connector head run', async () => {
    const connectorId = nextId('c');
    const run = newRun(connectorId, { requestedMode: 'full', correlationId: 'corr' });
    expect(await sut.enqueue(run)).toBe(true);
    expect(await sut.enqueue(run)).toBe(false);
    expect(await sut.enqueue(newRun(connectorId))).toBe(true);

    expect(await sut.headRun(connectorId)).toMatchObject({
      runId: run.runId,
      status: 'queued',
      phase: 'listing',
      after: 0,
      requestedMode: 'full',
      correlationId: 'corr',
      counts: { fetched: 0, upserted: 0, unchanged: 0, closed: 0 },
      warnings: [],
    });
    expect(await sut.run('no-such-run')).toBeUndefined();
  });

  it('lets one owner hold a connector lease; a step under a lost lease changes nothing', async () => {
    const connectorId = nextId('c');
    await sut.registerConnector(connectorId, 'acct');
    const run = newRun(connectorId);
    await sut.enqueue(run);

    expect(await sut.tryLease(connectorId, 'a', 60_000)).toBe(true);
    expect(await sut.tryLease(connectorId, 'b', 60_000)).toBe(false);
    expect(await sut.tryLease(connectorId, 'a', 60_000)).toBe(true);
    await expect(sut.inLease(run.runId, 'b', 60_000, async () => 'done')).rejects.toBeInstanceOf(
      RunLeaseLostError,
    );
    expect(await sut.inLease(run.runId, 'a', 60_000, async () => 'done')).toBe('done');

    await sut.releaseLease(connectorId, 'b'); // not b's: stays
    expect(await sut.tryLease(connectorId, 'b', 60_000)).toBe(false);
    await sut.releaseLease(connectorId, 'a');
    expect(await sut.tryLease(connectorId, 'b', 60_000)).toBe(true);
  });

  it('fixes mode and since at the first start, adds progress and keeps each warning once', async () => {
    const connectorId = nextId('c');
    await sut.registerConnector(connectorId, 'acct');
    const run = newRun(connectorId);
    await sut.enqueue(run);
    await sut.tryLease(connectorId, 'a', 60_000);
    const since = new Date('2026-01-02T03:04:05.000Z');

    const started = await sut.start(run.runId, 'a', 60_000, { mode: 'incremental', since });
    expect(started).toMatchObject({ status: 'running', mode: 'incremental', since });
    expect(started.startedAt).toBeInstanceOf(Date);
    const again = await sut.start(run.runId, 'a', 60_000, { mode: 'full' });
    expect(again).toMatchObject({ mode: 'incremental', since, startedAt: started.startedAt });

    const warning = { code: 'w1', message: 'one' };
    await sut.inLease(run.runId, 'a', 60_000, (m) =>
      sut.advance(
        m,
        run.runId,
        { fetched: 3, upserted: 2, read: 4, apiCalls: 1, warnings: [warning] },
        {
          after: 3,
        },
      ),
    );
    await sut.inLease(run.runId, 'a', 60_000, (m) =>
      sut.advance(
        m,
        run.runId,
        { fetched: 1, unchanged: 1, closed: 1, warnings: [warning, { code: 'w2', message: 'two' }] },
        { phase: 'closing' },
      ),
    );
    expect(await sut.run(run.runId)).toMatchObject({
      after: 3,
      phase: 'closing',
      counts: { fetched: 4, upserted: 2, unchanged: 1, closed: 1 },
      read: 4,
      apiCalls: 1,
      warnings: [warning, { code: 'w2', message: 'two' }],
    });
  });

  it('parks and ends runs; a success moves the schedule and the last-success marks', async () => {
    const connectorId = nextId('c');
    await sut.registerConnector(connectorId, 'acct');
    const run = newRun(connectorId);
    await sut.enqueue(run);
    await sut.tryLease(connectorId, 'a', 60_000);
    const started = await sut.start(run.runId, 'a', 60_000, { mode: 'full' });

    const resumeAt = new Date(Date.now() + 60_000);
    const lease = { owner: 'a', ttlMs: 60_000 };
    await sut.pause(run.runId, lease, { resumeAt, attempts: 2, error: 'rate limited', apiCalls: 5 });
    expect(await sut.run(run.runId)).toMatchObject({ status: 'paused', resumeAt, attempts: 2, apiCalls: 5 });

    const finished = await sut.finish(started, lease, 'succeeded', undefined, 3, 120, async () => undefined);
    expect(finished).toMatchObject({ status: 'succeeded', apiCalls: 8, resumeAt: undefined });
    expect(await sut.connector(connectorId)).toEqual({
      connectorId,
      accountId: 'acct',
      lastSuccessStartedAt: started.startedAt,
      lastFullStartedAt: started.startedAt,
    });
    const [{ next }] = (await dataSource.query(
      `SELECT extract(epoch FROM next_run_at - clock_timestamp()) AS next FROM sync_connector WHERE connector_id = $1`,
      [connectorId],
    )) as Array<{ next: string }>;
    expect(Number(next)).toBeGreaterThan(100);
    expect(Number(next)).toBeLessThanOrEqual(120);
    // A finished run no longer pauses.
    await sut.pause(run.runId, lease, { resumeAt, attempts: 1, error: 'late', apiCalls: 0 });
    expect((await sut.run(run.runId))?.status).toBe('succeeded');
  });

  it('claims a due connector once, never one with an open run or deactivated, and lists runnable ones', async () => {
    const idle = nextId('c');
    const busy = nextId('c');
    const gone = nextId('c');
    for (const id of [idle, busy, gone]) await sut.registerConnector(id, 'acct', 0);
    await sut.deactivate(gone);
    const busyRun = newRun(busy);
    await sut.enqueue(busyRun);

    const claimed = await Promise.all([sut.claimDue(100), sut.claimDue(100)]);
    const ids = claimed.flat().map((c) => c.connectorId);
    expect(ids.filter((id) => id === idle)).toHaveLength(1);
    expect(ids).not.toContain(busy);
    expect(ids).not.toContain(gone);
    expect(claimed.flat().find((c) => c.connectorId === idle)).toEqual({
      connectorId: idle,
      accountId: 'acct',
    });
    expect(await sut.claimDue(100)).not.toContainEqual(expect.objectContaining({ connectorId: idle }));

    expect(await sut.runnableConnectors(100)).toContain(busy);
    await sut.tryLease(busy, 'a', 60_000);
    expect(await sut.runnableConnectors(100)).not.toContain(busy);

    // Registering again brings a deactivated connector back.
    await sut.registerConnector(gone, 'acct', 0);
    expect((await sut.claimDue(100)).map((c) => c.connectorId)).toContain(gone);
  });

  describe('leases passed on', () => {
    const ttlMs = 60_000;
    const [stale, current] = [
      { owner: 'process-a', ttlMs },
      { owner: 'process-b', ttlMs },
    ];

    it("refuses a run's pause and end from a process whose lease lapsed and was taken over", async () => {
      await sut.registerConnector('conn-fenced', 'acct_1');
      await sut.enqueue({
        runId: 'fenced-run-1',
        connectorId: 'conn-fenced',
        accountId: 'acct_1',
        trigger: 'requested',
      });
      expect(await sut.tryLease('conn-fenced', stale.owner, ttlMs)).toBe(true);
      expect(await sut.renewLease('conn-fenced', stale.owner, ttlMs)).toBe(true);
      expect(await sut.tryLease('conn-fenced', current.owner, ttlMs)).toBe(false);

      // Process A froze past its lease; B takes the connector over.
      await dataSource.query(
        `UPDATE sync_connector SET lease_until = clock_timestamp() - interval '1 second' WHERE connector_id = 'conn-fenced'`,
      );
      expect(await sut.tryLease('conn-fenced', current.owner, ttlMs)).toBe(true);
      expect(await sut.renewLease('conn-fenced', stale.owner, ttlMs)).toBe(false);

      const run = await sut.start('fenced-run-1', current.owner, ttlMs, { mode: 'full' });
      const announced: string[] = [];
      await expect(
        sut.pause('fenced-run-1', stale, { resumeAt: new Date(), attempts: 1, error: 'x', apiCalls: 1 }),
      ).rejects.toBeInstanceOf(RunLeaseLostError);
      await expect(
        sut.finish(run, stale, 'failed', 'stale', 0, 900, async () => void announced.push('stale')),
      ).rejects.toBeInstanceOf(RunLeaseLostError);
      expect(announced).toEqual([]);
      expect(await sut.run('fenced-run-1')).toMatchObject({ status: 'running' });

      const finished = await sut.finish(
        run,
        current,
        'succeeded',
        undefined,
        3,
        900,
        async () => void announced.push('current'),
      );
      expect(finished.status).toBe('succeeded');
      expect(announced).toEqual(['current']);
    });

    it('commits nothing when the announcement before the commit fails', async () => {
      await sut.enqueue({
        runId: 'fenced-run-2',
        connectorId: 'conn-fenced',
        accountId: 'acct_1',
        trigger: 'requested',
      });
      const run = await sut.start('fenced-run-2', current.owner, ttlMs, { mode: 'full' });
      await expect(
        sut.finish(run, current, 'succeeded', undefined, 0, 900, async () => {
          throw new Error('broker gone');
        }),
      ).rejects.toThrow('broker gone');
      expect(await sut.run('fenced-run-2')).toMatchObject({ status: 'running' });
    });
  });
});
