export {
  SECONDS_PER_DAY,
  assertValidConfig,
  dailyQuotaBucket,
  type BucketConfig,
  type DailyQuotaOptions,
  type Priority,
} from './lib/token-bucket';
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
export { InMemoryRateLimiter } from './lib/in-memory-rate-limiter';
export { PostgresRateLimiter } from './lib/postgres-rate-limiter';
export {
  RATE_LIMIT_BUCKET_TABLE,
  RateLimitBucketMigration1763700000000,
} from './lib/rate-limit-bucket.migration';
export type { SqlQueryable } from './lib/sql-queryable';
