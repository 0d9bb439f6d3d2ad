/**
 * Pure token-bucket math: no clock, no I/O. Both limiters (in memory and Postgres) use it, so they agree
 * on what "enough tokens" and "how long to wait" mean.
 */

/** 'high' may spend the reserve (candidate, application, document pushes); 'normal' (syncs) may not. */
export type Priority = 'high' | 'normal';

export interface BucketConfig {
  /** Largest burst: the bucket never holds more than this. */
  capacity: number;
  /** Tokens added per second; for a daily quota this is quota / 86 400. */
  refillPerSecond: number;
  /** Tokens only 'high' priority may take, so a big sync can never starve pushes. */
  reserve: number;
}

export interface BucketState {
  tokens: number;
  /** Epoch milliseconds of the clock the state was computed with. */
  updatedAt: number;
}

export type TakeResult =
  { granted: true; state: BucketState } | { granted: false; state: BucketState; retryAfterMs: number };

export const SECONDS_PER_DAY = 86_400;

/** Throws on a config that could never work, so a typo fails at configure time and not on the first call. */
export function assertValidConfig(config: BucketConfig): void {
  const { capacity, refillPerSecond, reserve } = config;
  if (!(Number.isFinite(capacity) && capacity > 0))
    throw new RangeError(`capacity must be > 0, got ${capacity}`);
  // A zero refill would make every wait infinite; a fixed allowance is better modelled by a tiny rate.
  if (!(Number.isFinite(refillPerSecond) && refillPerSecond > 0)) {
    throw new RangeError(`refillPerSecond must be > 0, got ${refillPerSecond}`);
  }
  if (!(Number.isFinite(reserve) && reserve >= 0 && reserve < capacity)) {
    throw new RangeError(`reserve must be >= 0 and < capacity (${capacity}), got ${reserve}`);
  }
}

/** The level a caller of this priority may not go below. */
export function floorFor(config: BucketConfig, priority: Priority): number {
  switch (priority) {
    case 'high':
      return 0;
    case 'normal':
      return config.reserve;
  }
}

/** True when a request of this cost can never be granted, however long the caller waits. */
export function exceedsCapacity(config: BucketConfig, cost: number, priority: Priority): boolean {
  return cost > config.capacity - floorFor(config, priority);
}

/** Tokens at `now`: refilled since updatedAt, capped at capacity. A clock that went backwards adds nothing. */
export function refill(state: BucketState, config: BucketConfig, now: number): BucketState {
  const elapsedMs = Math.max(0, now - state.updatedAt);
  const tokens = Math.min(config.capacity, state.tokens + (config.refillPerSecond * elapsedMs) / 1000);
  return { tokens, updatedAt: Math.max(now, state.updatedAt) };
}

/** Milliseconds until `tokens` (already refilled to now) allow taking `cost` at this priority. */
export function msUntilAvailable(
  tokens: number,
  config: BucketConfig,
  cost: number,
  priority: Priority,
): number {
  const missing = cost + floorFor(config, priority) - tokens;
  if (missing <= 0) return 0;
  // Rounded up so that after sleeping this long the tokens are really there.
  return Math.ceil((missing / config.refillPerSecond) * 1000);
}

/** Refills, then takes `cost` if this priority may; otherwise says how long until it could. */
export function tryTake(
  state: BucketState,
  config: BucketConfig,
  cost: number,
  priority: Priority,
  now: number,
): TakeResult {
  const current = refill(state, config, now);
  if (current.tokens - cost >= floorFor(config, priority)) {
    return { granted: true, state: { tokens: current.tokens - cost, updatedAt: current.updatedAt } };
  }
  return {
    granted: false,
    state: current,
    retryAfterMs: msUntilAvailable(current.tokens, config, cost, priority),
  };
}

/** A full bucket, as a key starts. */
export function fullBucket(config: BucketConfig, now: number): BucketState {
  return { tokens: config.capacity, updatedAt: now };
}

export interface DailyQuotaOptions {
  /** Largest burst; defaults to 1% of the quota (at least 1). */
  burst?: number;
  /** Share of the burst kept for high priority, 0..1; defaults to 0.2. */
  reserveFraction?: number;
}

/**
 * A daily quota as a bucket refilled evenly over the day, so a sync cannot spend the whole day by 9am.
 * Worst case within one UTC day is burst + quota (full bucket at midnight plus a day of refill), hence a
 * small default burst; the 429 pause (pauseUntil) is the backstop for the rest.
 */
export function dailyQuotaBucket(quotaPerDay: number, options: DailyQuotaOptions = {}): BucketConfig {
  if (!(Number.isFinite(quotaPerDay) && quotaPerDay > 0)) {
    throw new RangeError(`quotaPerDay must be > 0, got ${quotaPerDay}`);
  }
  const capacity = options.burst ?? Math.max(1, Math.floor(quotaPerDay / 100));
  const reserveFraction = options.reserveFraction ?? 0.2;
  if (!(reserveFraction >= 0 && reserveFraction < 1)) {
    throw new RangeError(`reserveFraction must be >= 0 and < 1, got ${reserveFraction}`);
  }
  const config = {
    capacity,
    refillPerSecond: quotaPerDay / SECONDS_PER_DAY,
    reserve: capacity * reserveFraction,
  };
  assertValidConfig(config);
  return config;
}
