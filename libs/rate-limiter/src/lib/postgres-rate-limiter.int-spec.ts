import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { DataSource } from 'typeorm';
import {
  GO_MESSAGE,
  type AcquireWorkerMessage,
  type AcquireWorkerTask,
} from '../test/acquire-worker.protocol';
import { PostgresRateLimiter } from './postgres-rate-limiter';
import {
  RATE_LIMIT_BUCKET_TABLE,
  RateLimitBucketMigration1763700000000,
} from './rate-limit-bucket.migration';
import { RateLimiterErrorCode, RateLimitExceededError } from './rate-limiter.errors';
import type { BucketConfig } from './token-bucket';

type WorkerResult = Extract<AcquireWorkerMessage, { type: 'result' }>;

const WORKER_SCRIPT = join(__dirname, '..', 'test', 'acquire-worker.ts');
// Refill so slow that nothing comes back during a test: the bucket holds exactly its capacity.
const NEGLIGIBLE_REFILL = 1e-9;

describe(PostgresRateLimiter.name, () => {
  let database: TestDatabase;
  let pool: Pool;
  let keySeq = 0;
  const nextKey = (): string => `connector-${++keySeq}`;

  beforeAll(async () => {
    database = await createTestDatabase('rate_limiter');
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      await new RateLimitBucketMigration1763700000000().up(client);
    } finally {
      await client.end();
    }
    pool = new Pool({ connectionString: database.url, max: 4 });
  });

  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  /** Starts the workers, lets them connect, then releases them together and collects what each got. */
  async function race(tasks: AcquireWorkerTask[], beforeGo?: () => Promise<void>): Promise<WorkerResult[]> {
    const children = tasks.map((task) =>
      fork(WORKER_SCRIPT, [JSON.stringify(task)], {
        execArgv: ['-r', '@swc-node/register'],
        env: { ...process.env, DATABASE_URL: database.url },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }),
    );
    try {
      const results = children.map((child) => messageOf(child, 'result'));
      await Promise.all(children.map((child) => messageOf(child, 'ready')));
      await beforeGo?.();
      children.forEach((child) => child.send(GO_MESSAGE));
      return await Promise.all(results);
    } finally {
      children.forEach((child) => child.connected && child.kill());
    }
  }

  it.each([2, 4])('lets %i processes sharing a bucket of 10 get exactly 10 together', async (processes) => {
    const key = nextKey();
    const config: BucketConfig = { capacity: 10, refillPerSecond: NEGLIGIBLE_REFILL, reserve: 0 };
    const task: AcquireWorkerTask = { key, config, cost: 1, attempts: 10, priority: 'high', maxWaitMs: 0 };

    const results = await race(Array.from({ length: processes }, () => task));

    expect(results.flatMap((r) => r.errors)).toEqual([]);
    expect(results.reduce((sum, r) => sum + r.granted, 0)).toBe(10);
    expect(results.flatMap((r) => r.refused.map((x) => x.code))).toEqual(
      Array.from({ length: processes * 10 - 10 }, () => RateLimiterErrorCode.Exceeded),
    );
    const snapshot = await limiterFor(key, config).peek(key);
    expect(snapshot?.tokens).toBeCloseTo(0, 6);
  });

  it('keeps the reserve from a normal-priority process and gives it to a high-priority one', async () => {
    const key = nextKey();
    const config: BucketConfig = { capacity: 10, refillPerSecond: NEGLIGIBLE_REFILL, reserve: 3 };
    const base = { key, config, cost: 1, attempts: 10, maxWaitMs: 0 };

    const [sync] = await race([{ ...base, priority: 'normal' }]);
    expect(sync).toMatchObject({ granted: 7, errors: [] });

    const [push] = await race([{ ...base, priority: 'high' }]);
    expect(push).toMatchObject({ granted: 3, errors: [] });
  });

  it('makes a pause set in one process hold in another, failing fast with the pause end', async () => {
    const key = nextKey();
    const config: BucketConfig = { capacity: 10, refillPerSecond: 1, reserve: 0 };
    const until = new Date(Date.now() + 60_000);

    const [worker] = await race([{ key, config, cost: 1, attempts: 1, priority: 'high', maxWaitMs: 0 }], () =>
      limiterFor(key, config).pauseUntil(key, until),
    );

    expect(worker).toMatchObject({ granted: 0, errors: [] });
    expect(worker.refused).toHaveLength(1);
    expect(worker.refused[0].code).toBe(RateLimiterErrorCode.Paused);
    // The worker turns the database's pause end into its own clock; same machine, so close to the same instant.
    expect(Math.abs(Date.parse(worker.refused[0].retryAt) - until.getTime())).toBeLessThan(1_000);
  });

  it('makes another process wait out a short pause when maxWaitMs allows', async () => {
    const key = nextKey();
    const config: BucketConfig = { capacity: 10, refillPerSecond: 1, reserve: 0 };

    const [worker] = await race(
      [{ key, config, cost: 1, attempts: 1, priority: 'normal', maxWaitMs: 10_000 }],
      () => limiterFor(key, config).pauseUntil(key, new Date(Date.now() + 1_500)),
    );

    expect(worker).toMatchObject({ granted: 1, errors: [] });
    expect(worker.waitedMs[0]).toBeGreaterThanOrEqual(1_000);
  });

  it('waits for the refill within maxWaitMs and fails fast beyond it', async () => {
    const key = nextKey();
    const sut = limiterFor(key, { capacity: 1, refillPerSecond: 5, reserve: 0 });
    await sut.acquire(key, 1);

    const error = await sut.acquire(key, 1, { maxWaitMs: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitExceededError);
    expect((error as RateLimitExceededError).retryAfterMs()).toBeLessThanOrEqual(200);

    const { waitedMs } = await sut.acquire(key, 1, { maxWaitMs: 2_000 });
    expect(waitedMs).toBeGreaterThan(50);
    expect(waitedMs).toBeLessThan(1_000);
  });

  it('peeks the shared row: tokens, capacity, refill rate and pause', async () => {
    const key = nextKey();
    const config: BucketConfig = { capacity: 10, refillPerSecond: NEGLIGIBLE_REFILL, reserve: 2 };
    const sut = limiterFor(key, config);
    await expect(sut.peek(key)).resolves.toEqual({ key, ...config, tokens: 10, pausedUntil: null });

    await sut.acquire(key, 4);
    const until = new Date(Date.now() + 60_000);
    await sut.pauseUntil(key, until);

    // A limiter that was never configured (e.g. an operator API) still sees the row.
    const snapshot = await new PostgresRateLimiter(pool).peek(key);
    expect(snapshot).toMatchObject({ key, ...config, pausedUntil: until });
    expect(snapshot?.tokens).toBeCloseTo(6, 6);

    await sut.resume(key);
    await expect(sut.peek(key)).resolves.toMatchObject({ pausedUntil: null });
    await expect(new PostgresRateLimiter(pool).peek('never-used')).resolves.toBeUndefined();
  });

  it('works over a TypeORM DataSource as well as a pg Pool', async () => {
    const dataSource = await new DataSource({ type: 'postgres', url: database.url }).initialize();
    try {
      const key = nextKey();
      const sut = new PostgresRateLimiter(dataSource, { jitterMs: () => 0 });
      sut.configure(key, { capacity: 2, refillPerSecond: NEGLIGIBLE_REFILL, reserve: 1 });
      await expect(sut.acquire(key, 1)).resolves.toEqual({ waitedMs: 0 });
      await expect(sut.acquire(key, 1)).rejects.toMatchObject({ code: RateLimiterErrorCode.Exceeded });
      await expect(sut.acquire(key, 1, { priority: 'high' })).resolves.toEqual({ waitedMs: 0 });
      await sut.resume(key); // a bare UPDATE: TypeORM answers [rows, rowCount]
      await expect(sut.peek(key)).resolves.toMatchObject({ tokens: expect.closeTo(0, 6) });
    } finally {
      await dataSource.destroy();
    }
  });

  it('has a migration whose down() drops the table', async () => {
    const migration = new RateLimitBucketMigration1763700000000();
    await migration.down(pool);
    await expect(pool.query(`SELECT 1 FROM ${RATE_LIMIT_BUCKET_TABLE}`)).rejects.toThrow(/does not exist/);
    await migration.up(pool);
  });

  function limiterFor(key: string, config: BucketConfig): PostgresRateLimiter {
    const limiter = new PostgresRateLimiter(pool, { jitterMs: () => 0 });
    limiter.configure(key, config);
    return limiter;
  }
});

/** The next message of this type from a worker; rejects if it exits first. */
function messageOf<T extends AcquireWorkerMessage['type']>(
  child: ChildProcess,
  type: T,
): Promise<Extract<AcquireWorkerMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: AcquireWorkerMessage): void => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as Extract<AcquireWorkerMessage, { type: T }>);
    };
    const onExit = (code: number | null): void =>
      reject(new Error(`worker exited with ${code} before "${type}"`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}
