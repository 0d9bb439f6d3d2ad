import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { Client, Pool } from 'pg';
import { RateLimiterErrorCode, RateLimitExceededError } from '../rate-limiter.errors';
import { DailyQuotaMigration1764000000000 } from './daily-quota.migration';
import { PostgresDailyQuota } from './postgres-daily-quota';
import { allowanceFor, DAY_MS, type QuotaPolicy } from './quota-plan';

describe(PostgresDailyQuota.name, () => {
  let database: TestDatabase;
  let pool: Pool;
  let keySeq = 0;
  const nextKey = (): string => `ats-a:https://customer-${++keySeq}.example`;

  beforeAll(async () => {
    database = await createTestDatabase('daily_quota');
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      await new DailyQuotaMigration1764000000000().up(client);
    } finally {
      await client.end();
    }
    pool = new Pool({ connectionString: database.url, max: 8 });
  });

  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  const refusal = async (promise: Promise<unknown>): Promise<RateLimitExceededError> => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RateLimitExceededError);
    return error as RateLimitExceededError;
  };

  it('grants concurrent callers on 8 connections exactly the allowance the pure plan computes, never more', async () => {
    const quota = new PostgresDailyQuota(pool);
    const key = nextKey();
    const config = { limit: 300 };
    const results = await Promise.allSettled(
      Array.from({ length: 400 }, () => quota.acquire(key, 1, config, { priority: 'push' })),
    );
    const granted = results.filter((r) => r.status === 'fulfilled').length;
    const snapshot = await quota.snapshot(key, config);
    expect(snapshot.usedByUs).toBe(granted);
    expect(snapshot.usedByAll).toBe(granted);
    // The sync share for the rest of the day stays; pushes had everything else.
    expect(granted).toBe(300 - snapshot.syncShare);
    expect(snapshot.syncShare).toBeGreaterThanOrEqual(0);
    expect(
      results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code),
    ).toEqual(Array.from({ length: 400 - granted }, () => RateLimiterErrorCode.Exceeded));
    // Syncs still get their share after the push burst.
    if (snapshot.syncShare > 0) await quota.acquire(key, 1, config, { priority: 'sync' });
  });

  it("agrees with the pure plan's allowance for both sides", async () => {
    const policy: QuotaPolicy = { pushReserveFraction: 0.3, syncShareFraction: 0.1, windowMs: DAY_MS };
    const quota = new PostgresDailyQuota(pool, { policy });
    const key = nextKey();
    let grants = 0;
    for (;;) {
      try {
        await quota.acquire(key, 1, { limit: 50 }, { priority: 'sync' });
        grants++;
      } catch {
        break;
      }
    }
    const snapshot = await quota.snapshot(key, { limit: 50 });
    const window = {
      configuredLimit: 50,
      atsLimit: null,
      used: 0,
      ourUsed: 0,
      pushReserveSpent: 0,
      syncShareSpent: 0,
      resetAt: snapshot.resetAt,
      pausedUntil: null,
    };
    expect(grants).toBe(allowanceFor(window, policy, 'sync', Date.now()));
    expect(snapshot.pushReserve).toBe(50 - grants);
  });

  it("follows the ATS's headers: another integration's calls, the named reset, and a 429 pause", async () => {
    const quota = new PostgresDailyQuota(pool);
    const key = nextKey();
    const config = { limit: 2_000 };
    await quota.acquire(key, 1, config, { priority: 'push' });
    const resetAt = Date.now() + 60_000;
    await quota.observe(key, config, { limit: 1_000, remaining: 400, resetAt });
    let snapshot = await quota.snapshot(key, config);
    expect(snapshot).toMatchObject({ limit: 1_000, atsLimit: 1_000, usedByAll: 600, usedByUs: 1, resetAt });
    // A header from before our own calls landed does not lower the count.
    await quota.observe(key, config, { limit: 1_000, remaining: 900, resetAt });
    expect((await quota.snapshot(key, config)).usedByAll).toBe(600);

    await quota.pauseUntil(key, config, new Date(resetAt));
    const error = await refusal(quota.acquire(key, 1, config, { priority: 'push' }));
    expect(error.code).toBe(RateLimiterErrorCode.Paused);
    expect(error.retryAt.getTime()).toBeGreaterThanOrEqual(resetAt - 5);
    snapshot = await quota.snapshot(key, config);
    expect(snapshot).toMatchObject({ exhausted: true, resumesAt: resetAt });
  });

  it('starts a new window at the reset the ATS named, with nothing used', async () => {
    const quota = new PostgresDailyQuota(pool);
    const key = nextKey();
    const config = { limit: 10 };
    expect(await quota.acquire(key, 1, config, { priority: 'push' })).toEqual({ waitedMs: 0 });
    const resetAt = Date.now() + 1_500;
    await quota.observe(key, config, { limit: 10, remaining: 0, resetAt });
    expect(
      (await refusal(quota.acquire(key, 1, config, { priority: 'push' }))).retryAt.getTime(),
    ).toBeGreaterThanOrEqual(resetAt - 5);
    // Waited in place for the reset, and says how long.
    const { waitedMs } = await quota.acquire(key, 1, config, { priority: 'push', maxWaitMs: 5_000 });
    expect(waitedMs).toBeGreaterThan(0);
    const snapshot = await quota.snapshot(key, config);
    expect(snapshot).toMatchObject({ usedByAll: 1, usedByUs: 1 });
    expect(snapshot.resetAt).toBeGreaterThan(resetAt);
  });

  it('follows a changed limit at once, and counts the work waiting for budget', async () => {
    const quota = new PostgresDailyQuota(pool);
    const key = nextKey();
    await quota.acquire(key, 1, { limit: 2 }, { priority: 'push' });
    const error = await refusal(quota.acquire(key, 1, { limit: 2 }, { priority: 'push' }));
    await quota.waiting(key, 'event-1', 'message', error.retryAt);
    await quota.waiting(key, 'event-2', 'message', error.retryAt);
    await quota.waiting(key, 'run:1', 'run', error.retryAt);
    let snapshot = await quota.snapshot(key, { limit: 2 });
    expect(snapshot.waiting).toEqual({
      message: { count: 2, until: error.retryAt.getTime() },
      run: { count: 1, until: error.retryAt.getTime() },
    });
    await quota.setLimit(key, 500);
    snapshot = await quota.snapshot(key, { limit: 2 });
    expect(snapshot).toMatchObject({ configuredLimit: 500, exhausted: false });
    await quota.done(key, 'event-1');
    expect((await quota.snapshot(key, { limit: 500 })).waiting.message.count).toBe(1);
  });

  it("lists every customer system's calls today, its limit, reset and pause, in one read", async () => {
    const quota = new PostgresDailyQuota(pool);
    const [busy, paused] = [nextKey(), nextKey()];
    const resetAt = Date.now() + 3_600_000;
    await quota.acquire(busy, 1, { limit: 2_000 }, { priority: 'push' });
    await quota.observe(busy, { limit: 2_000 }, { limit: 1_000, remaining: 250, resetAt });
    await quota.acquire(paused, 1, { limit: 300 }, { priority: 'push' });
    await quota.pauseUntil(paused, { limit: 300 }, new Date(resetAt));
    const usage = new Map((await quota.usage()).map((u) => [u.key, u]));
    expect(usage.get(busy)).toEqual({ key: busy, used: 750, limit: 1_000, resetAt, paused: false });
    expect(usage.get(paused)).toMatchObject({ key: paused, used: 1, limit: 300, paused: true });
  });
});
