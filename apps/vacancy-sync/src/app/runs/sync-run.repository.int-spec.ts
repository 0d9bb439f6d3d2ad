import type { DataSource } from 'typeorm';
import { migratedDataSource } from '@connector/persistence/testing';
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
    dataSource = await migratedDataSource(database.url, { service: SERVICE_NAME, ...VACANCY_SYNC_SCHEMA });
    sut = new SyncRunRepository(dataSource);
  });

  const secondsToNextRun = async (connectorId: string): Promise<number> => {
    const [{ next }] = (await dataSource.query(
      `SELECT extract(epoch FROM next_run_at - clock_timestamp()) AS next FROM sync_connector WHERE connector_id = $1`,
      [connectorId],
    )) as Array<{ next: string }>;
    return Number(next);
  };

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
    const step = {
      seen: [{ externalId: 'v1', contentHash: 'h1' }],
      closed: ['v0'],
      delta: { fetched: 1, apiCalls: 1 },
      cursor: { after: 1 },
    };
    await expect(sut.commitStep(run.runId, { owner: 'b', ttlMs: 60_000 }, step)).rejects.toBeInstanceOf(
      RunLeaseLostError,
    );
    expect(await sut.run(run.runId)).toMatchObject({ after: 0, apiCalls: 0, counts: { fetched: 0 } });
    const states = async () =>
      (await dataSource.query(`SELECT count(*)::int AS n FROM vacancy_state WHERE connector_id = $1`, [
        connectorId,
      ])) as Array<{ n: number }>;
    expect(await states()).toEqual([{ n: 0 }]);
    await sut.commitStep(run.runId, { owner: 'a', ttlMs: 60_000 }, step);
    expect(await sut.run(run.runId)).toMatchObject({ after: 1, apiCalls: 1, counts: { fetched: 1 } });
    expect(await states()).toEqual([{ n: 1 }]);

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
    const lease = { owner: 'a', ttlMs: 60_000 };
    await sut.commitStep(run.runId, lease, {
      delta: { fetched: 3, upserted: 2, read: 4, apiCalls: 1, warnings: [warning] },
      cursor: { after: 3 },
    });
    await sut.commitStep(run.runId, lease, {
      delta: { fetched: 1, unchanged: 1, closed: 1, warnings: [warning, { code: 'w2', message: 'two' }] },
      cursor: { phase: 'closing' },
    });
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

    const finished = await sut.finish(
      started,
      lease,
      'succeeded',
      undefined,
      3,
      { intervalSeconds: 120 },
      async () => undefined,
    );
    expect(finished.run).toMatchObject({ status: 'succeeded', apiCalls: 8, resumeAt: undefined });
    const [marks] = (await dataSource.query(
      `SELECT connector_id, account_id, last_success_started_at, last_full_started_at
       FROM sync_connector WHERE connector_id = $1`,
      [connectorId],
    )) as Array<Record<string, unknown>>;
    expect(marks).toEqual({
      connector_id: connectorId,
      account_id: 'acct',
      last_success_started_at: started.startedAt,
      last_full_started_at: started.startedAt,
    });
    // A new interval (120 s instead of the 900 s kept) starts at the connector's slot, a tenth of it on at least.
    expect(await secondsToNextRun(connectorId)).toBeGreaterThanOrEqual(11);
    expect(await secondsToNextRun(connectorId)).toBeLessThanOrEqual(132);
    // A finished run no longer pauses.
    await sut.tryLease(connectorId, 'a', 60_000);
    await sut.pause(run.runId, lease, { resumeAt, attempts: 1, error: 'late', apiCalls: 0 });
    expect((await sut.run(run.runId))?.status).toBe('succeeded');
  });

  it('skips the slots a long run missed, and keeps a next run still ahead', async () => {
    const connectorId = nextId('c');
    await sut.registerConnector(connectorId, 'acct', 0);
    await dataSource.query(
      `UPDATE sync_connector SET interval_seconds = 60, next_run_at = clock_timestamp() - interval '10 minutes' WHERE connector_id = $1`,
      [connectorId],
    );
    const lease = { owner: 'a', ttlMs: 60_000 };
    const run = newRun(connectorId);
    await sut.enqueue(run);
    await sut.tryLease(connectorId, 'a', 60_000);
    const started = await sut.start(run.runId, 'a', 60_000, { mode: 'full' });
    await sut.finish(started, lease, 'failed', 'x', 0, { intervalSeconds: 60 }, async () => undefined);
    // Ten missed slots are skipped, not run one after another: the next run is one slot ahead, at most an
    // interval and a tenth away (how soon depends on where now falls in its interval: run-schedule.spec.ts).
    const next = await secondsToNextRun(connectorId);
    expect(next).toBeGreaterThan(0);
    expect(next).toBeLessThanOrEqual(66);

    const again = newRun(connectorId);
    await sut.enqueue(again);
    await sut.tryLease(connectorId, 'a', 60_000);
    const startedAgain = await sut.start(again.runId, 'a', 60_000, { mode: 'full' });
    await sut.finish(
      startedAgain,
      lease,
      'succeeded',
      undefined,
      0,
      { intervalSeconds: 60 },
      async () => undefined,
    );
    expect(Math.abs((await secondsToNextRun(connectorId)) - next)).toBeLessThan(2);
  });

  describe('options applied as they change', () => {
    const soon = (seconds: number) => new Date(Date.now() + seconds * 1000);
    const feedOf = async (connectorId: string) => {
      const [row] = (await dataSource.query(
        `SELECT poll_seconds, extract(epoch FROM next_read_at - clock_timestamp()) AS next
         FROM vacancy_event_feed WHERE connector_id = $1`,
        [connectorId],
      )) as Array<{ poll_seconds: number; next: string }>;
      return { pollSeconds: row!.poll_seconds, next: Number(row!.next) };
    };
    const connectorOn = async (intervalSeconds: number, pollSeconds: number) => {
      const connectorId = nextId('c');
      await sut.registerConnector(connectorId, 'acct', intervalSeconds);
      await dataSource.query(`UPDATE sync_connector SET interval_seconds = $2 WHERE connector_id = $1`, [
        connectorId,
        intervalSeconds,
      ]);
      await dataSource.query(
        `INSERT INTO vacancy_event_feed (connector_id, account_id, subscription_id, mode, next_read_at, poll_seconds)
         VALUES ($1, 'acct', 'vs-' || $1, 'events', clock_timestamp() + make_interval(secs => $2), $2)`,
        [connectorId, pollSeconds],
      );
      return connectorId;
    };

    it('brings the next run and read forward to the new, shorter period at once', async () => {
      const connectorId = await connectorOn(3_600, 3_600);
      const applied = await sut.applyOptions({
        connectorId,
        version: 2,
        intervalSeconds: 300,
        nextRunAt: soon(120),
        pollSeconds: 2,
        nextReadAt: soon(1),
      });
      expect(applied).toBe(true);
      expect(await secondsToNextRun(connectorId)).toBeLessThanOrEqual(120);
      expect(await feedOf(connectorId)).toEqual({ pollSeconds: 2, next: expect.any(Number) });
      expect((await feedOf(connectorId)).next).toBeLessThanOrEqual(1);
    });

    it('keeps a next run or read that comes sooner than the new period, and the periods it did not change', async () => {
      const connectorId = await connectorOn(300, 5);
      await sut.applyOptions({
        connectorId,
        version: 2,
        intervalSeconds: 3_600,
        nextRunAt: soon(3_000),
        pollSeconds: 5,
        nextReadAt: soon(0),
      });
      expect(await secondsToNextRun(connectorId)).toBeLessThanOrEqual(300); // still the old, sooner one
      expect((await feedOf(connectorId)).next).toBeGreaterThan(3); // poll period unchanged: not moved
      const [{ interval_seconds }] = (await dataSource.query(
        `SELECT interval_seconds FROM sync_connector WHERE connector_id = $1`,
        [connectorId],
      )) as Array<{ interval_seconds: number }>;
      expect(interval_seconds).toBe(3_600);
    });

    it('applies a version once, and never an older one after a newer', async () => {
      const connectorId = await connectorOn(900, 60);
      const values = { connectorId, intervalSeconds: 900, nextRunAt: soon(60), nextReadAt: soon(1) };
      expect(await sut.applyOptions({ ...values, version: 3, pollSeconds: 10 })).toBe(true);
      expect(await sut.applyOptions({ ...values, version: 3, pollSeconds: 10 })).toBe(false);
      expect(await sut.applyOptions({ ...values, version: 2, pollSeconds: 30 })).toBe(false);
      expect((await feedOf(connectorId)).pollSeconds).toBe(10);
      expect(
        await sut.applyOptions({ ...values, connectorId: 'not-scheduled', version: 9, pollSeconds: 5 }),
      ).toBe(false);
    });

    it('lets a run that read older options end without undoing the interval the change set', async () => {
      const connectorId = await connectorOn(3_600, 60);
      const run = newRun(connectorId);
      await sut.enqueue(run);
      await sut.tryLease(connectorId, 'a', 60_000);
      const started = await sut.start(run.runId, 'a', 60_000, { mode: 'full' });
      await sut.applyOptions({
        connectorId,
        version: 5,
        intervalSeconds: 300,
        nextRunAt: soon(200),
        pollSeconds: 60,
        nextReadAt: soon(60),
      });
      // The run read version 4's options (3 600 s): its end keeps the 300 s the change set.
      await sut.finish(
        started,
        { owner: 'a', ttlMs: 60_000 },
        'succeeded',
        undefined,
        0,
        { intervalSeconds: 3_600, optionsVersion: 4 },
        async () => undefined,
      );
      const [{ interval_seconds }] = (await dataSource.query(
        `SELECT interval_seconds FROM sync_connector WHERE connector_id = $1`,
        [connectorId],
      )) as Array<{ interval_seconds: number }>;
      expect(interval_seconds).toBe(300);
      expect(await secondsToNextRun(connectorId)).toBeLessThanOrEqual(300);
    });
  });

  it("gives the connector's lease back with its last open run's end, and keeps it while another is open", async () => {
    const connectorId = nextId('c');
    await sut.registerConnector(connectorId, 'acct');
    const lease = { owner: 'a', ttlMs: 60_000 };
    const [first, second] = [newRun(connectorId), newRun(connectorId)];
    await sut.enqueue(first);
    await sut.enqueue(second);
    await sut.tryLease(connectorId, 'a', 60_000);

    const started = await sut.start(first.runId, 'a', 60_000, { mode: 'full' });
    const one = await sut.finish(
      started,
      lease,
      'succeeded',
      undefined,
      0,
      { intervalSeconds: 900 },
      async () => undefined,
    );
    expect(one).toMatchObject({ run: { runId: first.runId, status: 'succeeded' }, leaseKept: true });
    expect(await sut.tryLease(connectorId, 'b', 60_000)).toBe(false);
    // The next head run comes with the connector's last successes (its mode is decided from them).
    expect(await sut.headRun(connectorId)).toMatchObject({
      runId: second.runId,
      lastSuccessStartedAt: started.startedAt,
      lastFullStartedAt: started.startedAt,
    });

    const two = await sut.finish(
      (await sut.run(second.runId))!,
      lease,
      'failed',
      'x',
      0,
      { intervalSeconds: 900 },
      async () => undefined,
    );
    expect(two).toMatchObject({ run: { runId: second.runId, status: 'failed' }, leaseKept: false });
    expect(await sut.renewLease(connectorId, 'a', 60_000)).toBe(false);
    expect(await sut.tryLease(connectorId, 'b', 60_000)).toBe(true);
  });

  describe('claiming due connectors', () => {
    const claim = (owner: string, limit = 100, perSystem = 2, perAccount = 1_000) =>
      sut.claimDue({ limit, owner, ttlMs: 60_000, perSystem, perAccount });
    /** Which of the six processes claimed `id`. */
    const ownerOf = (claims: Array<Array<{ connectorId: string }>>, id: string) =>
      'abcdef'[claims.findIndex((c) => c.some((r) => r.connectorId === id))];
    /** Connectors of this test only: earlier tests leave due connectors behind. */
    const ofThese = (ids: string[], claimed: Array<{ connectorId: string }>) =>
      claimed.map((c) => c.connectorId).filter((id) => ids.includes(id));

    beforeEach(async () => {
      // Each test starts from a schedule of its own: nothing left due by another test.
      await dataSource.query(`UPDATE sync_connector SET active = false`);
    });

    it('claims a due connector once, with its lease and a scheduled run; never one with an open run or inactive', async () => {
      const idle = nextId('c');
      const busy = nextId('c');
      const gone = nextId('c');
      for (const id of [idle, busy, gone]) await sut.registerConnector(id, 'acct', 0);
      await sut.deactivate(gone);
      await sut.enqueue(newRun(busy));

      const claimed = await Promise.all([claim('a'), claim('b')]);
      const all = claimed.flat();
      expect(all.filter((c) => c.connectorId === idle)).toHaveLength(1);
      expect(all.map((c) => c.connectorId)).not.toContain(busy);
      expect(all.map((c) => c.connectorId)).not.toContain(gone);
      const run = all.find((c) => c.connectorId === idle);
      const owner = claimed[0].includes(run as never) ? 'a' : 'b';
      expect(await sut.tryLease(idle, owner === 'a' ? 'b' : 'a', 60_000)).toBe(false);
      expect(await sut.headRun(idle)).toMatchObject({
        runId: run?.runId,
        trigger: 'scheduled',
        status: 'queued',
      });
      const [row] = (await dataSource.query(`SELECT scheduled_at FROM sync_run WHERE run_id = $1`, [
        run?.runId,
      ])) as Array<{ scheduled_at: Date }>;
      expect(row.scheduled_at).toEqual(run?.scheduledAt);
      expect(await claim('c')).toEqual([]);

      // Registering again brings a deactivated connector back.
      await sut.registerConnector(gone, 'acct', 0);
      expect(ofThese([gone], await claim('a'))).toEqual([gone]);
    });

    it('starts first syncs ahead of overdue connectors, then the longest overdue', async () => {
      const [old1, old2, fresh] = [nextId('c'), nextId('c'), nextId('c')];
      for (const id of [old1, old2]) {
        await sut.registerConnector(id, 'acct', 0);
        await dataSource.query(
          `UPDATE sync_connector SET last_success_started_at = clock_timestamp(), next_run_at = clock_timestamp() - make_interval(secs => $2) WHERE connector_id = $1`,
          [id, id === old1 ? 30 : 60],
        );
      }
      await sut.applyStatus(fresh, 'acct', true, new Date());
      expect(ofThese([old1, old2, fresh], await claim('a', 2))).toEqual([fresh, old2]);
      expect(ofThese([old1, old2, fresh], await claim('a', 2))).toEqual([old1]);
    });

    it('never runs more than the cap at once on one customer system, whichever process claims', async () => {
      const ids = Array.from({ length: 12 }, () => nextId('c'));
      for (const id of ids) {
        await sut.registerConnector(id, 'acct', 0);
        await sut.learnSystem(id, 'ats-a:https://acme.example');
      }
      // Claimed at the same moment by six processes: together still two.
      const claims = await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((owner) => claim(owner, 1, 2)));
      expect(ofThese(ids, claims.flat())).toHaveLength(2);
      expect(ofThese(ids, await claim('g', 10, 2))).toHaveLength(0);
    });

    it('never runs more than the cap at once of one account, whichever process claims; others go meanwhile', async () => {
      // One account gives each connector its own base path (its own system): only the account cap holds it.
      const noisy = Array.from({ length: 12 }, () => nextId('c'));
      for (const [i, id] of noisy.entries()) {
        await sut.registerConnector(id, 'acct-noisy', 0);
        await sut.learnSystem(id, `ats-a:https://noisy.example/p${i}`);
      }
      const quiet = nextId('c');
      await sut.registerConnector(quiet, 'acct-quiet', 0);
      const claims = await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((owner) => claim(owner, 2, 2, 3)));
      expect(ofThese(noisy, claims.flat())).toHaveLength(3);
      expect(ofThese([quiet], claims.flat())).toEqual([quiet]);
      // The rest stay due, without a run or a lease, until one of the account's runs ends.
      expect(ofThese(noisy, await claim('g', 10, 2, 3))).toHaveLength(0);
      const [ended] = ofThese(noisy, claims.flat());
      await sut.releaseLease(ended, ownerOf(claims, ended)); // its run ended
      expect(ofThese(noisy, await claim('g', 10, 2, 3))).toHaveLength(1);
    });

    it('lists runnable connectors with an asked-for run first, never one whose head run waits', async () => {
      const [scheduled, asked, parked] = [nextId('c'), nextId('c'), nextId('c')];
      for (const id of [scheduled, asked, parked]) await sut.registerConnector(id, 'acct');
      await sut.enqueue(newRun(scheduled, { trigger: 'scheduled' }));
      await sut.enqueue(newRun(asked));
      const head = newRun(parked);
      await sut.enqueue(head);
      await sut.enqueue(newRun(parked));
      await sut.tryLease(parked, 'a', 60_000);
      await sut.start(head.runId, 'a', 60_000, { mode: 'full' });
      const lease = { owner: 'a', ttlMs: 60_000 };
      await sut.pause(head.runId, lease, {
        resumeAt: new Date(Date.now() + 60_000),
        attempts: 0,
        error: 'budget',
        apiCalls: 0,
      });
      await sut.releaseLease(parked, 'a');

      const runnable = (await sut.runnableConnectors(100)).filter((id) =>
        [scheduled, asked, parked].includes(id),
      );
      expect(runnable).toEqual([asked, scheduled]);
      await sut.tryLease(asked, 'a', 60_000);
      expect(await sut.runnableConnectors(100)).not.toContain(asked);
    });
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
        sut.finish(
          run,
          stale,
          'failed',
          'stale',
          0,
          { intervalSeconds: 900 },
          async () => void announced.push('stale'),
        ),
      ).rejects.toBeInstanceOf(RunLeaseLostError);
      expect(announced).toEqual([]);
      expect(await sut.run('fenced-run-1')).toMatchObject({ status: 'running' });

      const finished = await sut.finish(
        run,
        current,
        'succeeded',
        undefined,
        3,
        { intervalSeconds: 900 },
        async () => void announced.push('current'),
      );
      expect(finished.run.status).toBe('succeeded');
      expect(announced).toEqual(['current']);
    });

    it('commits nothing when the announcement before the commit fails', async () => {
      await sut.enqueue({
        runId: 'fenced-run-2',
        connectorId: 'conn-fenced',
        accountId: 'acct_1',
        trigger: 'requested',
      });
      expect(await sut.tryLease('conn-fenced', current.owner, ttlMs)).toBe(true);
      const run = await sut.start('fenced-run-2', current.owner, ttlMs, { mode: 'full' });
      await expect(
        sut.finish(run, current, 'succeeded', undefined, 0, { intervalSeconds: 900 }, async () => {
          throw new Error('broker gone');
        }),
      ).rejects.toThrow('broker gone');
      expect(await sut.run('fenced-run-2')).toMatchObject({ status: 'running' });
    });
  });
});
