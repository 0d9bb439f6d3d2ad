/**
 * @connector/rate-limiter: token buckets per key (one key per connector), in process or shared via Postgres.
 *
 *   // once per service: list RATE_LIMIT_BUCKET_SCHEMA in its shared schemas (ServiceCoreModule `shared`)
 *   const limiter = new PostgresRateLimiter(dataSource); // or a pg.Pool
 *   limiter.configure(`ats-b:${connectorId}`, { capacity: 100, refillPerSecond: 25, reserve: 20 });
 *   await limiter.acquire(key, 1, { priority: 'high', maxWaitMs: 30_000 }); // pushes
 *   await limiter.acquire(key, 1, { priority: 'normal', maxWaitMs: 0 });    // syncs: requeue at error.retryAt
 *   await limiter.pauseUntil(key, resetAt);                                 // on a 429 from the ATS
 *
 * ATS daily quotas (ATS-A) use the planner instead of a drip: PostgresDailyQuota, decisions in quota-plan.ts.
 *   const quota = new PostgresDailyQuota(dataSource); // + DAILY_QUOTA_SCHEMA
 *   await quota.acquire(key, 1, { limit: 10_000 }, { priority: 'push', maxWaitMs: 10_000 });
 *   await quota.observe(key, { limit: 10_000 }, { limit, remaining, resetAt }); // every answer's headers
 *   new BatchedDailyQuota(dataSource); // the same, a few calls per statement (workers' bursts)
 *
 * Concurrency per ATS system (a bulkhead: one slow system holds only its own slots):
 *   const systems = new KeyedConcurrency('ats calls', { perKey: 4 });
 *   await systems.run(systemKey, () => call(), { maxWaitMs: 200 }); // else ConcurrencyBusyError(retryAt)
 */
export { assertValidConfig, type BucketConfig, type Priority } from './lib/token-bucket';
export {
  systemClock,
  type AcquireOptions,
  type AcquireResult,
  type BucketConfigResolver,
  type BucketSnapshot,
  type Clock,
  type RateLimiter,
  type RateLimiterOptions,
} from './lib/rate-limiter';
export { RateLimiterError, RateLimiterErrorCode, RateLimitExceededError } from './lib/rate-limiter.errors';
export {
  ConcurrencyBusyError,
  KeyedConcurrency,
  type AcquireSlotOptions,
  type KeyedConcurrencyOptions,
  type KeyedConcurrencySnapshot,
  type Release,
} from './lib/keyed-concurrency';
export { PostgresRateLimiter } from './lib/postgres-rate-limiter';
export { RATE_LIMIT_BUCKET_SCHEMA } from './lib/rate-limit-bucket.migration';
export * from './lib/daily-quota/quota-plan';
export {
  PostgresDailyQuota,
  type DailyQuotaStoreOptions,
  type QuotaAcquireOptions,
  type QuotaConfig,
  type QuotaHeaders,
  type QuotaSnapshot,
  type QuotaUsage,
  type WaiterKind,
} from './lib/daily-quota/postgres-daily-quota';
export { BatchedDailyQuota, type BatchedDailyQuotaOptions } from './lib/daily-quota/batched-daily-quota';
export { DAILY_QUOTA_SCHEMA } from './lib/daily-quota/daily-quota.migration';
