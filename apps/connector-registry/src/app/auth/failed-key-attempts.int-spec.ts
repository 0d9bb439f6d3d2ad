import type { DataSource } from 'typeorm';
import { migratedDataSource } from '@connector/persistence/testing';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { AdminKeyFailure1763900002602 } from '../migrations/1763900002602-admin-key-failure';
import { FailedKeyAttempts } from './failed-key-attempts';

/** The wrong-key counter against a real Postgres: one window per address, the same for every replica. */
describe(FailedKeyAttempts.name, () => {
  let database: TestDatabase;
  let db: DataSource;
  let replicas: FailedKeyAttempts[];

  beforeAll(async () => {
    database = await createTestDatabase('registry_key_failures');
    db = await migratedDataSource(database.url, {
      service: 'connector-registry',
      entities: [],
      migrations: [AdminKeyFailure1763900002602],
    });
    replicas = [new FailedKeyAttempts(db), new FailedKeyAttempts(db)];
    // Every wrong key written down, but in the test of the write budget itself.
    for (const replica of replicas) replica.policy.writesPerSecond = 10_000;
  });

  afterAll(async () => {
    await db?.destroy();
    await database.drop();
  });

  it('counts the wrong keys of one address across replicas, in one window', async () => {
    const counts: number[] = [];
    for (let i = 0; i < 6; i++) counts.push((await replicas[i % 2]!.recordFailure('198.51.100.1')).failures);
    expect(counts).toEqual([1, 2, 3, 4, 5, 6]);
    const { remainingMs } = await replicas[0]!.recordFailure('198.51.100.1');
    expect(remainingMs).toBeGreaterThan(0);
    expect(remainingMs).toBeLessThanOrEqual(60_000);
    expect((await replicas[1]!.recordFailure('198.51.100.2')).failures).toBe(1);
  });

  it('counts at once from many requests, none lost', async () => {
    // Under the limit every wrong key is written down (over it, a replica answers from memory: tested below).
    const counting = [new FailedKeyAttempts(db), new FailedKeyAttempts(db)];
    for (const replica of counting)
      Object.assign(replica.policy, { maxFailures: 1_000, writesPerSecond: 10_000 });
    await Promise.all(Array.from({ length: 20 }, (_, i) => counting[i % 2]!.recordFailure('198.51.100.3')));
    expect((await counting[0]!.recordFailure('198.51.100.3')).failures).toBe(21);
  });

  it('starts a new window once the last one is over', async () => {
    await replicas[0]!.recordFailure('198.51.100.4');
    await db.query(
      `UPDATE admin_key_failure SET window_started_at = now() - interval '61 seconds' WHERE address = $1`,
      ['198.51.100.4'],
    );
    expect(await replicas[1]!.recordFailure('198.51.100.4')).toEqual({
      failures: 1,
      remainingMs: expect.any(Number),
    });
  });

  it('answers a client over the limit from memory: a flood is not a write per wrong key', async () => {
    const [replica] = replicas;
    const { maxFailures } = replica!.policy;
    const answers = [];
    for (let i = 0; i < 200; i++) answers.push(await replica!.recordFailure('198.51.100.5'));
    expect(answers.map((answer) => answer.failures)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(await storedFailures('198.51.100.5')).toBe(maxFailures);
  });

  it('counts rotating IPv6 addresses of one /64 as one client', async () => {
    const [replica] = replicas;
    const { maxFailures } = replica!.policy;
    let last = { failures: 0, remainingMs: 0 };
    for (let i = 0; i <= maxFailures; i++)
      last = await replica!.recordFailure(`2001:db8:7:7::${(i + 1).toString(16)}`);
    expect(last.failures).toBe(maxFailures + 1);
    expect(await storedFailures('2001:db8:7:7::/64')).toBe(maxFailures);
  });

  it('writes at most writesPerSecond wrong keys a second, whatever the number of clients', async () => {
    const flooded = new FailedKeyAttempts(db);
    flooded.policy.writesPerSecond = 5;
    const before = await storedClients('203.0.113.');
    // Within one second of the process's clock, even if the test is slow: the budget resets each second.
    const started = Date.now();
    let answered = 0;
    while (Date.now() - started < 300) {
      await flooded.recordFailure(`203.0.113.${answered % 250}`);
      answered += 1;
    }
    const written = (await storedClients('203.0.113.')) - before;
    expect(answered).toBeGreaterThan(written);
    // 300 ms spans at most two clock seconds.
    expect(written).toBeLessThanOrEqual(10);
  });

  async function storedFailures(address: string): Promise<number> {
    const rows = (await db.query(`SELECT failures FROM admin_key_failure WHERE address = $1`, [
      address,
    ])) as Array<{
      failures: number;
    }>;
    return Number(rows[0]?.failures ?? 0);
  }

  async function storedClients(prefix: string): Promise<number> {
    const rows = (await db.query(`SELECT count(*)::int AS n FROM admin_key_failure WHERE address LIKE $1`, [
      `${prefix}%`,
    ])) as Array<{ n: number }>;
    return Number(rows[0]?.n ?? 0);
  }
});
