import type { SqlQueryable, StatementRow } from '@connector/persistence';
import { acquireWithRetry, defaultJitter, type AcquireLoopDeps, type AttemptOutcome } from './acquire-loop';
import {
  ACQUIRE_TOKENS,
  ENSURE_BUCKET,
  PAUSE_BUCKET,
  PEEK_BUCKET,
  RESUME_BUCKET,
} from './rate-limit-bucket.sql';
import { BucketConfigs } from './bucket-configs';
import { RateLimiterErrorCode } from './rate-limiter.errors';
import {
  systemClock,
  type AcquireOptions,
  type AcquireResult,
  type BucketSnapshot,
  type RateLimiter,
  type RateLimiterOptions,
} from './rate-limiter';
import { floorFor, msUntilAvailable, refill, type BucketConfig } from './token-bucket';

/**
 * Shared by every process that uses the same database: one row per key in rate_limit_bucket (see
 * RateLimitBucketMigration1763700000000), created full on first use. The row's config follows the last
 * acquirer's configure(), so all processes of a connector should configure a key alike.
 */
export class PostgresRateLimiter implements RateLimiter {
  private readonly configs: BucketConfigs;
  private readonly deps: AcquireLoopDeps;

  constructor(
    private readonly db: SqlQueryable,
    private readonly options: RateLimiterOptions = {},
  ) {
    this.deps = { clock: options.clock ?? systemClock, jitterMs: options.jitterMs ?? defaultJitter };
    this.configs = new BucketConfigs(options.resolveConfig);
  }

  configure(key: string, config: BucketConfig): void {
    this.configs.set(key, config);
  }

  async acquire(key: string, cost: number, options: AcquireOptions = {}): Promise<AcquireResult> {
    const config = this.configs.require(key);
    const priority = options.priority ?? 'normal';
    const values = {
      key,
      cost,
      capacity: config.capacity,
      refillPerSecond: config.refillPerSecond,
      reserve: config.reserve,
      floor: floorFor(config, priority),
    };
    const attempt = async (): Promise<AttemptOutcome> => {
      let [row] = await ACQUIRE_TOKENS.rows(this.db, values);
      if (!row) {
        // First use of the key anywhere: create it full, then try again.
        await this.ensureBucket(key, config);
        [row] = await ACQUIRE_TOKENS.rows(this.db, values);
        if (!row) throw new Error(`rate limit bucket "${key}" vanished right after it was created`);
      }
      if (row.granted) return { granted: true };
      return refusal(row, config, cost, priority);
    };
    return acquireWithRetry(key, cost, config, options, attempt, this.deps);
  }

  async pauseUntil(key: string, until: Date): Promise<void> {
    const config = this.configs.require(key);
    await PAUSE_BUCKET.rows(this.db, { key, ...bucketValues(config), untilMs: until.getTime() });
  }

  async resume(key: string): Promise<void> {
    await RESUME_BUCKET.rows(this.db, { key });
  }

  /** Read from the shared row (its config, the database clock); a key not yet used shows a full bucket. */
  async peek(key: string): Promise<BucketSnapshot | undefined> {
    const [row] = await PEEK_BUCKET.rows(this.db, { key });
    if (!row) {
      const config = this.configs.find(key);
      return config && { key, ...config, tokens: config.capacity, pausedUntil: null };
    }
    const config: BucketConfig = {
      capacity: row.capacity,
      refillPerSecond: row.refill_per_second,
      reserve: row.reserve,
    };
    const now = row.now_ms;
    const state = refill({ tokens: row.tokens, updatedAt: row.updated_at_ms }, config, now);
    const pausedUntil = row.paused_until_ms;
    return {
      key,
      ...config,
      tokens: state.tokens,
      pausedUntil: pausedUntil !== null && pausedUntil > now ? new Date(pausedUntil) : null,
    };
  }

  private async ensureBucket(key: string, config: BucketConfig): Promise<void> {
    await ENSURE_BUCKET.rows(this.db, { key, ...bucketValues(config) });
  }
}

/** A bucket's config as its row keeps it. */
function bucketValues(config: BucketConfig) {
  return { capacity: config.capacity, refillPerSecond: config.refillPerSecond, reserve: config.reserve };
}

/** How long to wait, from the row as the refused statement saw it (database clock, local config). */
function refusal(
  row: StatementRow<typeof ACQUIRE_TOKENS>,
  config: BucketConfig,
  cost: number,
  priority: 'high' | 'normal',
): AttemptOutcome {
  const { tokens, updated_at_ms: updatedAt, now_ms: now, paused_until_ms: pausedUntil } = row;
  // Only a granted take answers no bucket (its columns null); a refused one answers the bucket's row.
  if (tokens === null || updatedAt === null || now === null) {
    throw new TypeError('a refused take of tokens answered no bucket row');
  }
  if (pausedUntil !== null && pausedUntil > now) {
    return {
      granted: false,
      retryAfterMs: Math.ceil(pausedUntil - now),
      reason: RateLimiterErrorCode.Paused,
    };
  }
  const state = refill({ tokens, updatedAt }, config, now);
  // The row may predate a concurrent take, so "0 ms" can be stale: wait at least 1 ms before the next try.
  const retryAfterMs = Math.max(1, msUntilAvailable(state.tokens, config, cost, priority));
  return { granted: false, retryAfterMs, reason: RateLimiterErrorCode.Exceeded };
}
