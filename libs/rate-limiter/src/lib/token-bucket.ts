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
