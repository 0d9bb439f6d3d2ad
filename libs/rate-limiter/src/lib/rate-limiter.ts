import type { BucketConfig, Priority } from './token-bucket';

export interface AcquireOptions {
  /** Defaults to 'normal': only tokens above the reserve. */
  priority?: Priority;
  /** How long acquire may wait for tokens; 0 (the default) fails fast with the time they will be there. */
  maxWaitMs?: number;
}

export interface AcquireResult {
  /** Time spent waiting for tokens (0 when granted at once). */
  waitedMs: number;
}

/** A bucket as an operator or API shows it, refilled to the time of the read. */
export interface BucketSnapshot extends BucketConfig {
  key: string;
  tokens: number;
  /** Set after a 429 until the ATS reset; null when not paused (or the pause is over). */
  pausedUntil: Date | null;
}

/** Resolves the bucket config of a key the limiter was not told about with configure(). */
export type BucketConfigResolver = (key: string) => BucketConfig | undefined;

export interface RateLimiter {
  /** Sets (or changes) the bucket of a key; takes effect on the next acquire. */
  configure(key: string, config: BucketConfig): void;
  /**
   * Takes `cost` tokens, waiting up to maxWaitMs for them.
   * @throws RateLimitExceededError when they will not be there in time (code Exceeded or Paused, with retryAt)
   * @throws RateLimiterError CostExceedsCapacity / NotConfigured, which retrying cannot fix
   */
  acquire(key: string, cost: number, options?: AcquireOptions): Promise<AcquireResult>;
  /** After a 429: every acquirer of the key waits (or fails fast) until `until`. Never shortens a pause. */
  pauseUntil(key: string, until: Date): Promise<void>;
  /** Lifts a pause early, e.g. by an operator. */
  resume(key: string): Promise<void>;
  /** Current state, or undefined for a key that has neither a bucket nor a config. */
  peek(key: string): Promise<BucketSnapshot | undefined>;
}

export interface RateLimiterOptions {
  /** Config for keys not given to configure(), e.g. looked up from the connector's settings. */
  resolveConfig?: BucketConfigResolver;
  clock?: Clock;
  /** Extra sleep on top of the computed wait; defaults to a little randomness, tests pass () => 0. */
  jitterMs?: (retryAfterMs: number) => number;
}

/** Time, injectable so tests use a fake clock and never really wait. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
