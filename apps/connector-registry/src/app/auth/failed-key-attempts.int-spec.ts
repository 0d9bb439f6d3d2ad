import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '@connector/persistence';
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
    db = await new DataSource(
      dataSourceOptions({
        url: database.url,
        service: 'connector-registry',
        entities: [],
        migrations: [AdminKeyFailure1763900002602],
      }),
    ).initialize();
    await runMigrations(db);
    replicas = [new FailedKeyAttempts(db), new FailedKeyAttempts(db)];
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
    await Promise.all(Array.from({ length: 20 }, (_, i) => replicas[i % 2]!.recordFailure('198.51.100.3')));
    expect((await replicas[0]!.recordFailure('198.51.100.3')).failures).toBe(21);
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
});
