import { RateLimiterError, RateLimiterErrorCode, RateLimitExceededError } from './rate-limiter.errors';
import type { AcquireOptions, AcquireResult, Clock } from './rate-limiter';
import { exceedsCapacity, type BucketConfig } from './token-bucket';

/** One atomic try against a bucket store. */
export type AttemptOutcome =
  | { granted: true }
  | {
      granted: false;
      retryAfterMs: number;
      reason: RateLimiterErrorCode.Exceeded | RateLimiterErrorCode.Paused;
    };

export interface AcquireLoopDeps {
  clock: Clock;
  /** Extra sleep on top of retryAfterMs, so processes woken together do not race again in lockstep. */
  jitterMs: (retryAfterMs: number) => number;
}

/** Up to 25 ms or 10% of the wait, whichever is smaller. */
export const defaultJitter = (retryAfterMs: number): number =>
  Math.random() * Math.min(25, retryAfterMs * 0.1);

/** The wait-and-retry policy shared by every store: try, sleep until tokens are due, try again, within maxWaitMs. */
export async function acquireWithRetry(
  key: string,
  cost: number,
  config: BucketConfig,
  options: AcquireOptions,
  attempt: () => Promise<AttemptOutcome>,
  deps: AcquireLoopDeps,
): Promise<AcquireResult> {
  const priority = options.priority ?? 'normal';
  const maxWaitMs = Math.max(0, options.maxWaitMs ?? 0);
  if (!(Number.isFinite(cost) && cost > 0)) throw new RangeError(`cost must be > 0, got ${cost}`);
  if (exceedsCapacity(config, cost, priority)) {
    throw new RateLimiterError(
      RateLimiterErrorCode.CostExceedsCapacity,
      key,
      `cost ${cost} can never be granted to ${priority} priority on key "${key}" (capacity ${config.capacity}, reserve ${config.reserve})`,
    );
  }
  const { clock } = deps;
  const startedAt = clock.now();
  const deadline = startedAt + maxWaitMs;
  // Query time is not waiting: a grant on the first try reports 0, after sleeping the whole elapsed time.
  for (let slept = false; ; slept = true) {
    const outcome = await attempt();
    const now = clock.now();
    if (outcome.granted) return { waitedMs: slept ? now - startedAt : 0 };
    const retryAt = now + outcome.retryAfterMs;
    if (retryAt > deadline) throw new RateLimitExceededError(outcome.reason, key, new Date(retryAt));
    // Never sleep past the deadline: the last try happens at the latest when the caller said it would wait.
    const sleepMs = Math.min(outcome.retryAfterMs + deps.jitterMs(outcome.retryAfterMs), deadline - now);
    await clock.sleep(Math.max(0, sleepMs));
  }
}
