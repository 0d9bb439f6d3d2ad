import { Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { KeyedLeaseMigration1763700000002, KeyedLeases, LockTimeoutError } from './keyed-leases';

describe(KeyedLeases.name, () => {
  let database: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await createTestDatabase('keyed_leases');
    pool = new Pool({ connectionString: database.url, max: 4 });
    // The migration only calls query(), which a pg Pool has too.
    await new KeyedLeaseMigration1763700000002().up(pool as never);
  });

  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it('lets one worker at a time work on a key, however many wait, without holding a connection', async () => {
    // Two "processes" (separate instances) and 20 workers on the same key, with only 4 connections.
    const [a, b] = [
      new KeyedLeases(pool, { namespace: 'test' }),
      new KeyedLeases(pool, { namespace: 'test' }),
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
    const leases = new KeyedLeases(pool, { namespace: 'test' });
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
    const short = new KeyedLeases(pool, { namespace: 'test', ttlMs: 300 });
    let secondIn = false;
    const long = short.withLock('renewed', () => new Promise((resolve) => setTimeout(resolve, 1_000)), 1_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = short.withLock('renewed', async () => void (secondIn = true), 5_000);
    await new Promise((resolve) => setTimeout(resolve, 600)); // twice the TTL: renewal kept it
    expect(secondIn).toBe(false);
    await long;
    await second;
    expect(secondIn).toBe(true);

    // A holder that died (its row stays, never renewed) is taken over after the TTL.
    await pool.query(
      `INSERT INTO keyed_lease (namespace, key, owner, expires_at) VALUES ('test', 'orphan', 'dead', clock_timestamp() + interval '300 milliseconds')`,
    );
    const started = Date.now();
    await short.withLock('orphan', async () => undefined, 5_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });
});
