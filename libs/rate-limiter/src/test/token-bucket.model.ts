import {
  floorFor,
  msUntilAvailable,
  refill,
  type BucketConfig,
  type BucketState,
  type Priority,
} from '../lib/token-bucket';

/*
 * A bucket's take in memory, as the Postgres limiter's statement (rate-limit-bucket.sql.ts) does it: the model
 * the in-memory limiter runs on and the token-bucket spec reasons with.
 */

type TakeResult =
  { granted: true; state: BucketState } | { granted: false; state: BucketState; retryAfterMs: number };

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
