import type { SqlQueryable } from '@connector/persistence';
import type { AcquireResult } from '../rate-limiter';
import { RateLimitExceededError } from '../rate-limiter.errors';
import {
  type DailyQuotaStoreOptions,
  PostgresDailyQuota,
  type QuotaAcquireOptions,
  type QuotaConfig,
  type QuotaHeaders,
  type WaiterKind,
} from './postgres-daily-quota';

export interface BatchedDailyQuotaOptions extends DailyQuotaStoreOptions {
  /** Most calls taken in one statement (default 32). */
  maxBatch?: number;
  /** Calls of the day per call taken at once: a limit of 10 000 batches by 2 at most (default 5 000). */
  limitPerBatchedCall?: number;
  /** Calls taken ahead and not used within this long are dropped, never kept for a later burst (default 1 000). */
  holdMs?: number;
  /** How long answers' headers and finished waiters are gathered before one statement records them (default 50). */
  flushMs?: number;
}

interface Held {
  calls: number;
  until: number;
}

/**
 * The shared daily quota, taken a few calls at a time per process: a burst costs one statement for several
 * ATS calls instead of one each. Every batch goes through the same statement as a single call (the limit,
 * the push reserve, the sync share, a 429's pause), so the shared plan holds as before: a batch that does
 * not fit is not split but falls back to one call. What a process takes ahead counts as used at once; what
 * it does not use within `holdMs` is dropped, not handed back, which is why batches grow only with the
 * demand seen and only where the day's limit is large (the smaller of the connector's and the one the ATS
 * named in its answers). A 429, a new limit, or an answer leaving fewer calls than are held drops what is
 * held for its key, and a batch on its way then is not held either. Answers' X-RateLimit-* headers (only the
 * highest count matters: the statement keeps the larger `used`) and waiters that got budget are written in
 * one statement per `flushMs`.
 */
export class BatchedDailyQuota extends PostgresDailyQuota {
  private readonly held = new Map<string, Held>();
  /** Per key, bumped whenever what is held is dropped: a batch on its way then is not held when it lands. */
  private readonly generations = new Map<string, number>();
  /** Per slot, the batch being taken and the calls it would hold. */
  private readonly refills = new Map<string, { taking: Promise<void>; calls: number }>();
  private readonly demand = new Map<string, { since: number; calls: number; before: number }>();
  private readonly observed = new Map<string, { config: QuotaConfig; headers: QuotaHeaders }>();
  /** Per key, the day's limit the ATS last named (X-RateLimit-Limit): batches are sized by it too. */
  private readonly atsLimits = new Map<string, number>();
  private readonly finished = new Map<string, Set<string>>();
  /** Per key, the answer's headers being written now. */
  private readonly observing = new Map<string, Promise<void>>();
  /** Per key, the finished waiters whose removal is being written now. */
  private readonly removing = new Map<string, { ids: Set<string>; written: Promise<void> }>();
  private flushing?: Promise<void>;
  private readonly maxBatch: number;
  private readonly limitPerBatchedCall: number;
  private readonly holdMs: number;
  private readonly flushMs: number;

  constructor(db: SqlQueryable, options: BatchedDailyQuotaOptions = {}) {
    super(db, options);
    this.maxBatch = options.maxBatch ?? 32;
    this.limitPerBatchedCall = options.limitPerBatchedCall ?? 5_000;
    this.holdMs = options.holdMs ?? 1_000;
    this.flushMs = options.flushMs ?? 50;
  }

  override async acquire(
    key: string,
    cost: number,
    config: QuotaConfig,
    options: QuotaAcquireOptions,
  ): Promise<AcquireResult> {
    if (cost !== 1) return this.plan(key, cost, config, options);
    const slot = `${key}\u0000${options.priority}`;
    const batch = this.batchSize(slot, Math.min(config.limit, this.atsLimits.get(key) ?? config.limit));
    for (;;) {
      if (this.takeHeld(slot)) return { waitedMs: 0 };
      const refill = this.refills.get(slot);
      if (refill) {
        // Another call of this process is taking a batch: share it rather than take one more.
        await refill.taking;
        continue;
      }
      if (batch <= 1) return this.plan(key, 1, config, options);
      let granted = false;
      const generation = this.generationOf(key);
      const taking = this.plan(key, batch, config, { priority: options.priority, maxWaitMs: 0 })
        .then(
          () => {
            // A 429, a new limit or an answer came meanwhile: none of the batch is used (it stays counted,
            // which only over-counts); this call and those waiting on the batch plan again below.
            if (this.generationOf(key) !== generation) return;
            granted = true;
            // One of the batch is this call's; the rest are held for the next ones.
            this.held.set(slot, { calls: batch - 1, until: Date.now() + this.holdMs });
          },
          (error: unknown) => {
            if (!(error instanceof RateLimitExceededError)) throw error;
          },
        )
        .finally(() => this.refills.delete(slot));
      this.refills.set(slot, { taking, calls: batch - 1 });
      await taking;
      if (granted) return { waitedMs: 0 };
      // The batch did not fit (near the limit, a share's edge, a pause) or landed after a drop: one call,
      // waiting as asked.
      return this.plan(key, 1, config, options);
    }
  }

  /**
   * The planning statement, once the answers' headers gathered for the key are written: the plan always
   * counts what the ATS last said (a new window's reset and count), however soon after an answer it runs.
   */
  private async plan(
    key: string,
    cost: number,
    config: QuotaConfig,
    options: QuotaAcquireOptions,
  ): Promise<AcquireResult> {
    const pending = this.observed.get(key);
    if (pending) {
      this.observed.delete(key);
      // Not written (Postgres away): the statement below fails the same way, or plans without it.
      await this.record(key, pending.config, pending.headers).catch(() => undefined);
    } else {
      await this.observing.get(key)?.catch(() => undefined);
    }
    return super.acquire(key, cost, config, options);
  }

  /** Drops what is held before the pause is written and after: a batch planned meanwhile is not held. */
  override async pauseUntil(key: string, config: QuotaConfig, until: Date): Promise<void> {
    this.dropHeld(key);
    try {
      await super.pauseUntil(key, config, until);
    } finally {
      this.dropHeld(key);
    }
  }

  /** Drops what is held before the limit is written and again after, as pauseUntil does. */
  override async setLimit(key: string, limit: number): Promise<void> {
    this.dropHeld(key);
    try {
      await super.setLimit(key, limit);
    } finally {
      this.dropHeld(key);
    }
  }

  /**
   * Gathered: the answer with the highest count per key (and reset) is written within `flushMs`. Held calls
   * are granted without the plan, so they are dropped at once when the ATS has fewer left than are held or
   * names another limit: the next call plans with these headers.
   */
  override observe(key: string, config: QuotaConfig, headers: QuotaHeaders): Promise<void> {
    if (headers.limit === null && headers.remaining === null && headers.resetAt === null) {
      return Promise.resolve();
    }
    const limitBefore = this.atsLimits.get(key);
    const newLimit = headers.limit !== null && limitBefore !== undefined && headers.limit !== limitBefore;
    if (newLimit || (headers.remaining !== null && headers.remaining < this.heldFor(key))) this.dropHeld(key);
    if (headers.limit !== null) this.atsLimits.set(key, headers.limit);
    const before = this.observed.get(key);
    if (!before || !countsNoMore(headers, before.headers)) this.observed.set(key, { config, headers });
    return this.scheduleFlush();
  }

  /** Gathered: waiters that got budget are removed within `flushMs`, in one statement per key. */
  override done(key: string, waiterId: string): Promise<void> {
    let ids = this.finished.get(key);
    if (!ids) this.finished.set(key, (ids = new Set()));
    ids.add(waiterId);
    return this.scheduleFlush();
  }

  override async waiting(key: string, waiterId: string, kind: WaiterKind, until: Date): Promise<void> {
    // Waiting again after a `done` not yet written: the `done` must not remove the new row. One being
    // written is let finish first (callers do not wait for `done`), so it cannot remove the row written next.
    this.finished.get(key)?.delete(waiterId);
    const removal = this.removing.get(key);
    if (removal?.ids.has(waiterId)) await removal.written.catch(() => undefined);
    await super.waiting(key, waiterId, kind, until);
  }

  /** Writes what was gathered now (tests, shutdown). */
  async flush(): Promise<void> {
    const observed = [...this.observed.entries()];
    this.observed.clear();
    const finished = [...this.finished.entries()];
    this.finished.clear();
    await Promise.all([
      ...observed.map(([key, { config, headers }]) => this.record(key, config, headers)),
      ...finished.map(([key, ids]) => this.remove(key, ids)),
    ]);
  }

  private async record(key: string, config: QuotaConfig, headers: QuotaHeaders): Promise<void> {
    const written = super.observe(key, config, headers);
    this.observing.set(key, written);
    try {
      await written;
    } finally {
      if (this.observing.get(key) === written) this.observing.delete(key);
    }
  }

  private async remove(key: string, ids: Set<string>): Promise<void> {
    const written = this.doneAll(key, [...ids]);
    this.removing.set(key, { ids, written });
    try {
      await written;
    } finally {
      if (this.removing.get(key)?.written === written) this.removing.delete(key);
    }
  }

  private scheduleFlush(): Promise<void> {
    this.flushing ??= new Promise<void>((resolve) => setTimeout(resolve, this.flushMs).unref()).then(() => {
      this.flushing = undefined;
      return this.flush();
    });
    return this.flushing;
  }

  /**
   * As many calls as this process asked for in the last `holdMs` (or the one before), within the bounds;
   * `limit` is the day's: the smaller of the connector's and the ATS's own when it named one.
   */
  private batchSize(slot: string, limit: number): number {
    const now = Date.now();
    let seen = this.demand.get(slot);
    if (!seen) this.demand.set(slot, (seen = { since: now, calls: 0, before: 0 }));
    if (now - seen.since > this.holdMs) {
      seen.before = now - seen.since <= 2 * this.holdMs ? seen.calls : 0;
      seen.calls = 0;
      seen.since = now;
    }
    seen.calls += 1;
    const bound = Math.min(this.maxBatch, Math.floor(limit / this.limitPerBatchedCall));
    return Math.max(1, Math.min(bound, Math.max(seen.before, seen.calls)));
  }

  private takeHeld(slot: string): boolean {
    const held = this.held.get(slot);
    if (!held || held.calls < 1) return false;
    if (Date.now() > held.until) {
      this.held.delete(slot);
      return false;
    }
    held.calls -= 1;
    return true;
  }

  /** Calls held for the key or about to be (batches on their way), every priority's. */
  private heldFor(key: string): number {
    let calls = 0;
    for (const [slot, held] of this.held) if (slot.startsWith(`${key}\u0000`)) calls += held.calls;
    for (const [slot, refill] of this.refills) if (slot.startsWith(`${key}\u0000`)) calls += refill.calls;
    return calls;
  }

  private generationOf(key: string): number {
    return this.generations.get(key) ?? 0;
  }

  private dropHeld(key: string): void {
    this.generations.set(key, this.generationOf(key) + 1);
    for (const slot of this.held.keys()) if (slot.startsWith(`${key}\u0000`)) this.held.delete(slot);
  }
}

/** `next` says no more calls were used than `before` did, in the same window (so it adds nothing). */
function countsNoMore(next: QuotaHeaders, before: QuotaHeaders): boolean {
  if (next.resetAt !== before.resetAt || next.limit !== before.limit) return false;
  if (next.remaining === null || before.remaining === null) return next.remaining === before.remaining;
  return next.remaining >= before.remaining;
}
