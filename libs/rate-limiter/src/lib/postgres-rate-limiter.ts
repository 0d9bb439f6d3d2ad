import {
  nullableNumberColumn,
  numberColumn,
  rowsOf,
  type SqlQueryable,
  type SqlRow,
} from '@connector/persistence';
import { acquireWithRetry, defaultJitter, type AcquireLoopDeps, type AttemptOutcome } from './acquire-loop';
import { RATE_LIMIT_BUCKET_TABLE } from './rate-limit-bucket.migration';
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

const T = `"${RATE_LIMIT_BUCKET_TABLE}"`;

// Refilled tokens at the database clock; clock_timestamp() (not now()) so a statement that waited for the
// row lock counts the time up to when it really runs.
const REFILLED = `least($3::float8, b.tokens + b.refill_per_second
  * greatest(0, extract(epoch FROM clock_timestamp() - b.updated_at)::float8))`;

/**
 * One statement: take the tokens if this priority may and the key is not paused; otherwise return the row as
 * it was so the caller can compute how long to wait. The UPDATE locks the row and re-checks its WHERE on the
 * newest version, so concurrent takers never both spend the same tokens.
 * $1 key, $2 cost, $3 capacity, $4 refill/s, $5 reserve, $6 floor for this priority.
 */
const ACQUIRE_SQL = `
WITH taken AS (
  UPDATE ${T} AS b
     SET tokens = ${REFILLED} - $2::float8,
         updated_at = greatest(b.updated_at, clock_timestamp()),
         capacity = $3::float8,
         refill_per_second = $4::float8,
         reserve = $5::float8
   WHERE b.key = $1
     AND (b.paused_until IS NULL OR b.paused_until <= clock_timestamp())
     AND ${REFILLED} - $2::float8 >= $6::float8
  RETURNING b.key
)
SELECT true AS granted, NULL::float8 AS tokens, NULL::float8 AS updated_at_ms,
       NULL::float8 AS paused_until_ms, NULL::float8 AS now_ms
  FROM taken
UNION ALL
SELECT false, b.tokens, (extract(epoch FROM b.updated_at) * 1000)::float8,
       (extract(epoch FROM b.paused_until) * 1000)::float8, (extract(epoch FROM clock_timestamp()) * 1000)::float8
  FROM ${T} AS b
 WHERE b.key = $1 AND NOT EXISTS (SELECT 1 FROM taken)`;

const ENSURE_SQL = `
INSERT INTO ${T} (key, tokens, capacity, refill_per_second, reserve, updated_at, paused_until)
VALUES ($1, $2::float8, $2::float8, $3::float8, $4::float8, clock_timestamp(), NULL)
ON CONFLICT (key) DO NOTHING`;

// greatest() ignores NULL, and never shortens a pause another worker set from a later Retry-After.
const PAUSE_SQL = `
INSERT INTO ${T} AS b (key, tokens, capacity, refill_per_second, reserve, updated_at, paused_until)
VALUES ($1, $2::float8, $2::float8, $3::float8, $4::float8, clock_timestamp(), to_timestamp($5::float8 / 1000))
ON CONFLICT (key) DO UPDATE SET paused_until = greatest(b.paused_until, EXCLUDED.paused_until)`;

const RESUME_SQL = `UPDATE ${T} SET paused_until = NULL WHERE key = $1`;

const PEEK_SQL = `
SELECT tokens, capacity, refill_per_second, reserve,
       (extract(epoch FROM updated_at) * 1000)::float8 AS updated_at_ms,
       (extract(epoch FROM paused_until) * 1000)::float8 AS paused_until_ms,
       (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now_ms
  FROM ${T} WHERE key = $1`;

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
    const params = [
      key,
      cost,
      config.capacity,
      config.refillPerSecond,
      config.reserve,
      floorFor(config, priority),
    ];
    const attempt = async (): Promise<AttemptOutcome> => {
      let [row] = rowsOf(await this.db.query(ACQUIRE_SQL, params));
      if (!row) {
        // First use of the key anywhere: create it full, then try again.
        await this.ensureBucket(key, config);
        [row] = rowsOf(await this.db.query(ACQUIRE_SQL, params));
        if (!row) throw new Error(`rate limit bucket "${key}" vanished right after it was created`);
      }
      if (row['granted'] === true) return { granted: true };
      return refusal(row, config, cost, priority);
    };
    return acquireWithRetry(key, cost, config, options, attempt, this.deps);
  }

  async pauseUntil(key: string, until: Date): Promise<void> {
    const config = this.configs.require(key);
    await this.db.query(PAUSE_SQL, [
      key,
      config.capacity,
      config.refillPerSecond,
      config.reserve,
      until.getTime(),
    ]);
  }

  async resume(key: string): Promise<void> {
    await this.db.query(RESUME_SQL, [key]);
  }

  /** Read from the shared row (its config, the database clock); a key not yet used shows a full bucket. */
  async peek(key: string): Promise<BucketSnapshot | undefined> {
    const [row] = rowsOf(await this.db.query(PEEK_SQL, [key]));
    if (!row) {
      const config = this.configs.find(key);
      return config && { key, ...config, tokens: config.capacity, pausedUntil: null };
    }
    const config: BucketConfig = {
      capacity: numberColumn(row, 'capacity'),
      refillPerSecond: numberColumn(row, 'refill_per_second'),
      reserve: numberColumn(row, 'reserve'),
    };
    const now = numberColumn(row, 'now_ms');
    const state = refill(
      { tokens: numberColumn(row, 'tokens'), updatedAt: numberColumn(row, 'updated_at_ms') },
      config,
      now,
    );
    const pausedUntil = nullableNumberColumn(row, 'paused_until_ms');
    return {
      key,
      ...config,
      tokens: state.tokens,
      pausedUntil: pausedUntil !== null && pausedUntil > now ? new Date(pausedUntil) : null,
    };
  }

  private async ensureBucket(key: string, config: BucketConfig): Promise<void> {
    await this.db.query(ENSURE_SQL, [key, config.capacity, config.refillPerSecond, config.reserve]);
  }
}

/** How long to wait, from the row as the refused statement saw it (database clock, local config). */
function refusal(
  row: SqlRow,
  config: BucketConfig,
  cost: number,
  priority: 'high' | 'normal',
): AttemptOutcome {
  const now = numberColumn(row, 'now_ms');
  const pausedUntil = nullableNumberColumn(row, 'paused_until_ms');
  if (pausedUntil !== null && pausedUntil > now) {
    return {
      granted: false,
      retryAfterMs: Math.ceil(pausedUntil - now),
      reason: RateLimiterErrorCode.Paused,
    };
  }
  const state = refill(
    { tokens: numberColumn(row, 'tokens'), updatedAt: numberColumn(row, 'updated_at_ms') },
    config,
    now,
  );
  // The row may predate a concurrent take, so "0 ms" can be stale: wait at least 1 ms before the next try.
  const retryAfterMs = Math.max(1, msUntilAvailable(state.tokens, config, cost, priority));
  return { granted: false, retryAfterMs, reason: RateLimiterErrorCode.Exceeded };
}
