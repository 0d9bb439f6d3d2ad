export interface QuotaSnapshot {
  limit: number;
  used: number;
  remaining: number;
  windowSeconds: number;
  windowStart: string;
  windowEnd: string;
  /** Epoch seconds of the window end: the value of X-RateLimit-Reset. */
  resetEpochSeconds: number;
  /** Seconds until the window ends: the value of Retry-After on a 429. */
  retryAfterSeconds: number;
}

/** What every /api response needs: kept to numbers because it is computed on every call. */
export interface QuotaDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetEpochSeconds: number;
  retryAfterSeconds: number;
}

/**
 * The daily call limit of the customer's system, shared by all its keys. Windows are aligned to multiples of
 * `windowSeconds` since the epoch: with the default 86 400 that is UTC midnight, as the vendor's day.
 */
export class QuotaMeter {
  private windowStartMs = 0;
  private used = 0;
  /** Windows are aligned to multiples of windowSeconds from here (0: the epoch, so UTC midnight by default). */
  private originMs = 0;

  constructor(
    private limit: number,
    private readonly windowSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  private roll(now: number): void {
    const windowMs = this.windowSeconds * 1000;
    const start = this.originMs + Math.floor((now - this.originMs) / windowMs) * windowMs;
    if (start !== this.windowStartMs) {
      this.windowStartMs = start;
      this.used = 0;
    }
  }

  /** Counts one call when there is room; a refused call does not count. */
  consume(): QuotaDecision {
    const now = this.now();
    this.roll(now);
    const allowed = this.used < this.limit;
    if (allowed) this.used++;
    const endMs = this.windowStartMs + this.windowSeconds * 1000;
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, this.limit - this.used),
      resetEpochSeconds: Math.ceil(endMs / 1000),
      retryAfterSeconds: Math.max(1, Math.ceil((endMs - now) / 1000)),
    };
  }

  snapshot(): QuotaSnapshot {
    const now = this.now();
    this.roll(now);
    return this.snapshotAt(now);
  }

  set(change: { limit?: number; used?: number }): QuotaSnapshot {
    this.roll(this.now());
    if (change.limit !== undefined) this.limit = change.limit;
    if (change.used !== undefined) this.used = change.used;
    return this.snapshot();
  }

  /** A new window begins now, its use 0 (tests that must not wait for an aligned window). */
  startWindowNow(): void {
    this.originMs = this.now();
    this.roll(this.originMs);
  }

  /**
   * The current window ends at `atMs` and the next ones follow from there: a customer system whose day resets
   * at its own hour (its time zone), not at UTC midnight. Its use starts at 0.
   */
  endWindowAt(atMs: number): void {
    this.originMs = atMs;
    this.roll(this.now());
    this.used = 0;
  }

  reset(): void {
    this.used = 0;
  }

  private snapshotAt(now: number): QuotaSnapshot {
    const endMs = this.windowStartMs + this.windowSeconds * 1000;
    return {
      limit: this.limit,
      used: this.used,
      remaining: Math.max(0, this.limit - this.used),
      windowSeconds: this.windowSeconds,
      windowStart: new Date(this.windowStartMs).toISOString(),
      windowEnd: new Date(endMs).toISOString(),
      resetEpochSeconds: Math.ceil(endMs / 1000),
      retryAfterSeconds: Math.max(1, Math.ceil((endMs - now) / 1000)),
    };
  }
}
