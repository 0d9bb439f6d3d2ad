/** What went wrong; callers map these to retry / dead-letter decisions in one place. */
export enum RateLimiterErrorCode {
  /** Not enough tokens within maxWaitMs; retry at retryAt. */
  Exceeded = 'RATE_LIMIT_EXCEEDED',
  /** The key is paused (the ATS answered 429) past maxWaitMs; retry at retryAt. */
  Paused = 'RATE_LIMIT_PAUSED',
  /** The cost is larger than this priority may ever take from the bucket; retrying cannot help. */
  CostExceedsCapacity = 'RATE_LIMIT_COST_EXCEEDS_CAPACITY',
  /** Every concurrency slot of the key (one ATS system) is taken; retry at retryAt (KeyedConcurrency). */
  Busy = 'SYSTEM_BUSY',
  /** acquire or pauseUntil on a key with no bucket config; a programming error. */
  NotConfigured = 'RATE_LIMIT_NOT_CONFIGURED',
}

/** Base class for every error of this lib. */
export class RateLimiterError extends Error {
  constructor(
    readonly code: RateLimiterErrorCode,
    readonly key: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Tokens will not be there within maxWaitMs (or the key is paused); retryAt says when they will. */
export class RateLimitExceededError extends RateLimiterError {
  constructor(
    code: RateLimiterErrorCode.Exceeded | RateLimiterErrorCode.Paused,
    key: string,
    readonly retryAt: Date,
  ) {
    super(
      code,
      key,
      code === RateLimiterErrorCode.Paused
        ? `rate limit key "${key}" is paused until ${retryAt.toISOString()}`
        : `rate limit for key "${key}" exceeded; tokens available at ${retryAt.toISOString()}`,
    );
  }

  /** Milliseconds from `now` until retryAt, never negative; handy for a Retry-After or a requeue delay. */
  retryAfterMs(now: number = Date.now()): number {
    return Math.max(0, this.retryAt.getTime() - now);
  }
}
