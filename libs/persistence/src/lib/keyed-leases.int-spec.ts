import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { dataSourceOptions, runMigrations } from './data-source';
import { type Lease, KeyedLeases, LeaseLostError, LockTimeoutError, renewWhileHeld } from './keyed-leases';
import { KEYED_LEASE_SCHEMA } from './shared-tables';

describe(KeyedLeases.name, () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('keyed_leases');
    dataSource = await new DataSource(
      dataSourceOptions({
        url: database.url,
        service: 'leases-test',
        entities: [],
        migrations: [],
        shared: [KEYED_LEASE_SCHEMA],
        poolSize: 4,
      }),
    ).initialize();
    await runMigrations(dataSource, [KEYED_LEASE_SCHEMA]);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('lets one worker at a time work on a key, however many wait, without holding a connection', async () => {
    // Two "processes" (separate instances) and 20 workers on the same key, with only 4 connections.
    const [a, b] = [
      new KeyedLeases(dataSource, { namespace: 'test' }),
      new KeyedLeases(dataSource, { namespace: 'test' }),
    ];
    let inside = 0;
    let most = 0;
    const work = async () => {
      inside += 1;
      most = Math.max(most, inside);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inside -= 1;
    };
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).withLock('c1:cand-1', work, 10_000)),
    );
    expect(most).toBe(1);
    // Other keys are not held up.
    await a.withLock('c1:cand-2', async () => undefined, 100);
  });

  it('gives up with LockTimeoutError when the key stays taken', async () => {
    const leases = new KeyedLeases(dataSource, { namespace: 'test' });
    let release!: () => void;
    const holding = leases.withLock('busy', () => new Promise<void>((resolve) => (release = resolve)), 1_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(leases.withLock('busy', async () => undefined, 200)).rejects.toBeInstanceOf(
      LockTimeoutError,
    );
    release();
    await holding;
  });

  it('renews a lease while the work runs, and lets another take it over once its holder is gone', async () => {
    // A TTL long enough that a loaded machine (two test files at once beside other work) still renews every
    // third of it in time: with 300 ms a renewal delayed by the CPU let the second in.
    const short = new KeyedLeases(dataSource, { namespace: 'test', ttlMs: 1_500 });
    let secondIn = false;
    const long = short.withLock('renewed', () => new Promise((resolve) => setTimeout(resolve, 4_000)), 1_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = short.withLock('renewed', async () => void (secondIn = true), 10_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // twice the TTL: only renewal can have kept it
    expect(secondIn).toBe(false);
    await long;
    await second;
    expect(secondIn).toBe(true);

    // A holder that died (its row stays, never renewed) is taken over after the TTL.
    await dataSource.query(
      `INSERT INTO keyed_lease (namespace, key, owner, expires_at) VALUES ('test', 'orphan', 'dead', clock_timestamp() + interval '1500 milliseconds')`,
    );
    const started = Date.now();
    await short.withLock('orphan', async () => undefined, 10_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_200);
  });

  it('gives every grant a larger fencing token than the one before, on any key', async () => {
    const leases = new KeyedLeases(dataSource, { namespace: 'test' });
    const tokens: number[] = [];
    for (const key of ['t1', 't1', 't2', 't1']) {
      await leases.withLock(key, async (lease) => void tokens.push(lease.token), 1_000);
    }
    expect(tokens).toEqual([...tokens].sort((a, b) => a - b));
    expect(new Set(tokens).size).toBe(4);
  });

  it("aborts the holder's signal when its renewal touches no row, and a later holder's token is larger", async () => {
    const leases = new KeyedLeases(dataSource, { namespace: 'test', ttlMs: 300 });
    let held!: Lease;
    let release!: () => void;
    const holding = leases.withLock(
      'taken-over',
      (lease) => {
        held = lease;
        return new Promise<void>((resolve) => (release = resolve));
      },
      1_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Its process froze past the TTL and another took the key over: the next renewal finds no row of its own.
    await dataSource.query(
      `UPDATE keyed_lease SET expires_at = clock_timestamp() - interval '1 second' WHERE key = 'taken-over'`,
    );
    let later!: Lease;
    let releaseLater!: () => void;
    const second = leases.withLock(
      'taken-over',
      (lease) => {
        later = lease;
        return new Promise<void>((resolve) => (releaseLater = resolve));
      },
      1_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 250)); // a renewal comes every 100 ms
    expect(held.signal.aborted).toBe(true);
    expect(held.signal.reason).toBeInstanceOf(LeaseLostError);
    expect(later.token).toBeGreaterThan(held.token);
    expect(later.signal.aborted).toBe(false);
    release();
    await holding;
    // The first holder's release leaves the second's lease alone.
    const rows = (await dataSource.query(`SELECT token FROM keyed_lease WHERE key = 'taken-over'`)) as Array<{
      token: string;
    }>;
    expect(Number(rows[0].token)).toBe(later.token);
    releaseLater();
    await second;
  });

  it('gives the lease up when it cannot be renewed before it would lapse', async () => {
    let failing = false;
    const renewal = renewWhileHeld('unreachable', 300, async () => {
      if (failing) throw new Error('connection terminated');
      return true;
    });
    await new Promise((resolve) => setTimeout(resolve, 150)); // one renewal confirmed
    expect(renewal.signal.aborted).toBe(false);
    failing = true;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(renewal.signal.aborted).toBe(true);
    expect(String(renewal.signal.reason)).toMatch(/could not renew it in time: connection terminated/);
    renewal.stop();
  });
});
