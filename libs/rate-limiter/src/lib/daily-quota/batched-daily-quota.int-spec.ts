import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { Client, Pool } from 'pg';
import { RateLimiterErrorCode, RateLimitExceededError } from '../rate-limiter.errors';
import { BatchedDailyQuota } from './batched-daily-quota';
import { DailyQuotaMigration1764000000000 } from './daily-quota.migration';
import { PostgresDailyQuota } from './postgres-daily-quota';

describe(BatchedDailyQuota.name, () => {
  let database: TestDatabase;
  let pool: Pool;
  let keySeq = 0;
  const nextKey = (): string => `ats-a:https://batched-${++keySeq}.example`;
  const statements: string[] = [];
  const counted = () => ({
    query: (text: string, values?: unknown[]) => {
      statements.push(text);
      return pool.query(text, values);
    },
  });

  beforeAll(async () => {
    database = await createTestDatabase('batched_quota');
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      await new DailyQuotaMigration1764000000000().up(client);
    } finally {
      await client.end();
    }
    pool = new Pool({ connectionString: database.url, max: 8 });
  });

  beforeEach(() => (statements.length = 0));

  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  it('takes a burst in a few statements, and the shared row counts every call taken', async () => {
    const quota = new BatchedDailyQuota(counted(), { limitPerBatchedCall: 1 });
    const key = nextKey();
    const config = { limit: 1_000_000 };
    for (let i = 0; i < 20; i++) {
      await Promise.all(
        Array.from({ length: 10 }, () => quota.acquire(key, 1, config, { priority: 'push' })),
      );
    }
    const taking = statements.filter((s) => s.includes('FOR UPDATE')).length;
    expect(taking).toBeLessThan(40);
    const snapshot = await new PostgresDailyQuota(pool).snapshot(key, config);
    // Calls taken ahead count as used: never fewer than were made, never more than one batch over.
    expect(snapshot.usedByUs).toBeGreaterThanOrEqual(200);
    expect(snapshot.usedByUs).toBeLessThanOrEqual(200 + 32);
  });

  it('never takes more than the plan allows pushes, from two processes at once', async () => {
    const key = nextKey();
    const config = { limit: 300 };
    const processes = [
      new BatchedDailyQuota(pool, { limitPerBatchedCall: 1 }),
      new BatchedDailyQuota(pool, { limitPerBatchedCall: 1 }),
    ];
    const results = await Promise.allSettled(
      Array.from({ length: 400 }, (_, i) =>
        processes[i % 2].acquire(key, 1, config, { priority: 'push', maxWaitMs: 0 }),
      ),
    );
    const granted = results.filter((r) => r.status === 'fulfilled').length;
    const snapshot = await new PostgresDailyQuota(pool).snapshot(key, config);
    // What was taken (granted or held) stays within what pushes may have: the sync share is untouched.
    expect(snapshot.usedByUs).toBeLessThanOrEqual(300 - snapshot.syncShare);
    expect(granted).toBeLessThanOrEqual(snapshot.usedByUs);
    expect(granted).toBeGreaterThan(0);
    for (const r of results) {
      if (r.status === 'rejected')
        expect((r.reason as RateLimitExceededError).code).toBe(RateLimiterErrorCode.Exceeded);
    }
    // Syncs still get their share after the push burst.
    if (snapshot.syncShare > 0) await processes[0].acquire(key, 1, config, { priority: 'sync' });
  });

  it('uses nothing it holds once a 429 paused the key', async () => {
    const quota = new BatchedDailyQuota(pool, { limitPerBatchedCall: 1 });
    const key = nextKey();
    const config = { limit: 1_000_000 };
    await Promise.all(Array.from({ length: 10 }, () => quota.acquire(key, 1, config, { priority: 'push' })));
    await Promise.all(Array.from({ length: 10 }, () => quota.acquire(key, 1, config, { priority: 'push' })));
    await quota.pauseUntil(key, config, new Date(Date.now() + 60_000));
    const error = await quota
      .acquire(key, 1, config, { priority: 'push', maxWaitMs: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitExceededError);
    expect((error as RateLimitExceededError).code).toBe(RateLimiterErrorCode.Paused);
  });

  it('uses nothing it holds once an answer says fewer calls remain than it holds', async () => {
    const quota = new BatchedDailyQuota(pool, { limitPerBatchedCall: 1 });
    const key = nextKey();
    const config = { limit: 1_000_000 };
    await Promise.all(Array.from({ length: 10 }, () => quota.acquire(key, 1, config, { priority: 'push' })));
    await Promise.all(Array.from({ length: 10 }, () => quota.acquire(key, 1, config, { priority: 'push' })));
    // The ATS's window is spent until a reset in a minute: the calls held for the burst must not be made.
    await quota.observe(key, config, { limit: 1_000_000, remaining: 0, resetAt: Date.now() + 60_000 });
    await expect(quota.acquire(key, 1, config, { priority: 'push', maxWaitMs: 0 })).rejects.toBeInstanceOf(
      RateLimitExceededError,
    );
  });

  /** A process whose batches come back slowly, with a batch on its way after a burst. */
  const batchOnItsWay = async (key: string, config: { limit: number }) => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const slowBatches = {
      query: async (text: string, values?: unknown[]) => {
        const result = await pool.query(text, values);
        if (text.includes('FOR UPDATE') && Number(values?.[1]) > 1) await sleep(100);
        return result;
      },
    };
    const quota = new BatchedDailyQuota(slowBatches, { limitPerBatchedCall: 1 });
    for (let i = 0; i < 3; i++) {
      await Promise.all(
        Array.from({ length: 10 }, () => quota.acquire(key, 1, config, { priority: 'push' })),
      );
    }
    await sleep(1_100); // what was held has lapsed; the demand is remembered, so the next call takes a batch
    const inFlight = Promise.allSettled(
      Array.from({ length: 10 }, () => quota.acquire(key, 1, config, { priority: 'push' })),
    );
    await sleep(20);
    return { quota, inFlight };
  };

  it('holds nothing of a batch taken while a 429 paused the key', async () => {
    const key = nextKey();
    const config = { limit: 1_000_000 };
    const { quota, inFlight } = await batchOnItsWay(key, config);
    await quota.pauseUntil(key, config, new Date(Date.now() + 60_000));
    const settled = await inFlight;
    expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(0);
    const error = await quota
      .acquire(key, 1, config, { priority: 'push', maxWaitMs: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitExceededError);
    expect((error as RateLimitExceededError).code).toBe(RateLimiterErrorCode.Paused);
  });

  it('holds nothing of a batch taken while an answer said no calls remain', async () => {
    const key = nextKey();
    const config = { limit: 1_000_000 };
    const { quota, inFlight } = await batchOnItsWay(key, config);
    void quota.observe(key, config, { limit: 1_000_000, remaining: 0, resetAt: Date.now() + 60_000 });
    const settled = await inFlight;
    expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(0);
    await expect(quota.acquire(key, 1, config, { priority: 'push', maxWaitMs: 0 })).rejects.toBeInstanceOf(
      RateLimitExceededError,
    );
  });

  it('does not batch where the day is small: one call per statement', async () => {
    const quota = new BatchedDailyQuota(counted());
    const key = nextKey();
    const config = { limit: 4_000 };
    await Promise.all(Array.from({ length: 10 }, () => quota.acquire(key, 1, config, { priority: 'push' })));
    const snapshot = await new PostgresDailyQuota(pool).snapshot(key, config);
    expect(snapshot.usedByUs).toBe(10);
  });

  it("does not batch once the ATS names a small limit, whatever the connector's configured one", async () => {
    const quota = new BatchedDailyQuota(counted());
    const key = nextKey();
    // The connector's default limit would batch by 2; the ATS says its day is 300 calls.
    const config = { limit: 10_000 };
    await quota.acquire(key, 1, config, { priority: 'push' });
    await quota.observe(key, config, { limit: 300, remaining: 299, resetAt: Date.now() + 30_000 });
    const before = (await new PostgresDailyQuota(pool).snapshot(key, config)).usedByUs;
    await Promise.all(Array.from({ length: 9 }, () => quota.acquire(key, 1, config, { priority: 'push' })));
    // Nine calls taken, none ahead: a batch not used within holdMs would be dropped and lost to the day.
    expect((await new PostgresDailyQuota(pool).snapshot(key, config)).usedByUs - before).toBe(9);
  });

  it('writes the highest count of gathered headers and the finished waiters in one flush', async () => {
    const quota = new BatchedDailyQuota(counted(), { flushMs: 10_000 });
    const key = nextKey();
    const config = { limit: 1_000 };
    await quota.acquire(key, 1, config, { priority: 'push' });
    const resetAt = Date.now() + 3_600_000;
    await quota.waiting(key, 'm1', 'message', new Date(Date.now() + 60_000));
    await quota.waiting(key, 'm2', 'message', new Date(Date.now() + 60_000));
    void quota.observe(key, config, { limit: 1_000, remaining: 900, resetAt });
    void quota.observe(key, config, { limit: 1_000, remaining: 800, resetAt });
    void quota.observe(key, config, { limit: 1_000, remaining: 850, resetAt });
    void quota.done(key, 'm1');
    void quota.done(key, 'm2');
    // Waiting again after its `done` was gathered: the new wait stays.
    await quota.waiting(key, 'm2', 'message', new Date(Date.now() + 60_000));
    statements.length = 0;
    await quota.flush();
    expect(statements).toHaveLength(2);
    const snapshot = await new PostgresDailyQuota(pool).snapshot(key, config);
    expect(snapshot.usedByAll).toBe(200);
    expect(snapshot.waiting.message.count).toBe(1);
  });

  it('plans with the headers of the last answer, however soon after it the next call asks', async () => {
    const quota = new BatchedDailyQuota(counted(), { flushMs: 10_000 });
    const key = nextKey();
    const config = { limit: 4 };
    await quota.acquire(key, 1, config, { priority: 'push' });
    // The ATS answers that its window is spent until a reset in a minute (gathered, not yet flushed).
    void quota.observe(key, config, { limit: 4, remaining: 0, resetAt: Date.now() + 60_000 });
    await expect(quota.acquire(key, 1, config, { priority: 'push', maxWaitMs: 0 })).rejects.toBeInstanceOf(
      RateLimitExceededError,
    );
  });

  it('keeps a wait written while the removal of the same waiter is being written (callers do not await done)', async () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Removals of finished waiters reach Postgres slowly, so a wait written meanwhile would go first.
    const slowRemovals = {
      query: async (text: string, values?: unknown[]) => {
        if (/^\s*DELETE FROM "?ats_quota_waiter/i.test(text)) await sleep(300);
        return pool.query(text, values);
      },
    };
    const quota = new BatchedDailyQuota(slowRemovals, { flushMs: 10 });
    const key = nextKey();
    const config = { limit: 1_000 };
    const until = () => new Date(Date.now() + 60_000);
    await quota.waiting(key, 'm1', 'message', until());
    const removed = quota.done(key, 'm1');
    await sleep(100); // the flush has begun: the removal is on its way
    await quota.waiting(key, 'm1', 'message', until());
    await removed;
    const snapshot = await new PostgresDailyQuota(pool).snapshot(key, config);
    expect(snapshot.waiting.message.count).toBe(1);
  });
});
