import { RateLimiterError, RateLimiterErrorCode } from './rate-limiter.errors';

/** Gives the slot back; a second call does nothing. */
export type Release = () => void;

export interface KeyedConcurrencyOptions {
  /** Holders of one key at once in this process (one ATS system, one account). */
  perKey: number;
  /** What a refusal tells the caller to wait before it tries again (jittered by ±50 %). Default 1 000 ms. */
  retryAfterMs?: number;
}

export interface AcquireSlotOptions {
  /** How long to wait in the key's line before giving up with ConcurrencyBusyError (default 0: only a free slot). */
  maxWaitMs?: number;
  signal?: AbortSignal;
}

export interface KeyedConcurrencySnapshot {
  /** Keys with a holder or a waiter (the map holds nothing else, so it stays as small as the work). */
  keys: number;
  held: number;
  waiting: number;
  /** Keys whose every slot is taken. */
  fullKeys: number;
  /** The most slots any one key holds, as a share of all held (0 when none are): one system's hold on the fleet. */
  largestShare: number;
}

/** Every slot of this key is taken, and stayed so for as long as the caller said it would wait. */
export class ConcurrencyBusyError extends RateLimiterError {
  constructor(
    key: string,
    readonly retryAt: Date,
    readonly limiter: string,
  ) {
    super(
      RateLimiterErrorCode.Busy,
      key,
      `${limiter}: every slot of this system is busy; try again at ${retryAt.toISOString()}`,
    );
  }
}

interface Line {
  held: number;
  waiters: Array<{ grant: () => void }>;
}

/**
 * A bulkhead per key: at most `perKey` holders of one key at once (one customer's ATS system), the next in
 * line served first. A key's line never takes another key's slot, so a slow system holds only its own.
 * Nothing is kept for a key with no holder and no waiter: 10 000 quiet systems cost nothing.
 */
export class KeyedConcurrency {
  private readonly lines = new Map<string, Line>();

  constructor(
    readonly name: string,
    private readonly options: KeyedConcurrencyOptions,
  ) {
    if (!(Number.isInteger(options.perKey) && options.perKey >= 1))
      throw new RangeError(`${name}: perKey must be a whole number of at least 1, got ${options.perKey}`);
  }

  /** A slot now, or undefined when the key's slots are all taken (nobody in line is overtaken). */
  tryAcquire(key: string): Release | undefined {
    const line = this.lineOf(key);
    if (line.held >= this.options.perKey || line.waiters.length > 0) {
      this.forgetIfIdle(key, line);
      return undefined;
    }
    line.held += 1;
    return this.releaser(key, line);
  }

  /** A slot, waiting in the key's line up to `maxWaitMs`; else ConcurrencyBusyError naming when to come back. */
  acquire(key: string, options: AcquireSlotOptions = {}): Promise<Release> {
    const now = this.tryAcquire(key);
    if (now) return Promise.resolve(now);
    const maxWaitMs = Math.max(0, options.maxWaitMs ?? 0);
    if (maxWaitMs === 0 || options.signal?.aborted) return Promise.reject(this.busy(key));
    const line = this.lineOf(key);
    return new Promise<Release>((resolve, reject) => {
      const waiter = {
        grant: () => {
          settle();
          line.held += 1;
          resolve(this.releaser(key, line));
        },
      };
      const giveUp = (error: unknown) => {
        const index = line.waiters.indexOf(waiter);
        if (index >= 0) line.waiters.splice(index, 1);
        settle();
        this.forgetIfIdle(key, line);
        reject(error);
      };
      const timer = setTimeout(() => giveUp(this.busy(key)), maxWaitMs);
      const onAbort = () => giveUp(options.signal?.reason ?? new Error('aborted'));
      const settle = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      line.waiters.push(waiter);
    });
  }

  /** `work` inside one of the key's slots. */
  async run<T>(key: string, work: () => Promise<T>, options?: AcquireSlotOptions): Promise<T> {
    const release = await this.acquire(key, options);
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Holders of the key now. */
  held(key: string): number {
    return this.lines.get(key)?.held ?? 0;
  }

  snapshot(): KeyedConcurrencySnapshot {
    let held = 0;
    let waiting = 0;
    let fullKeys = 0;
    let largest = 0;
    for (const line of this.lines.values()) {
      held += line.held;
      waiting += line.waiters.length;
      if (line.held >= this.options.perKey) fullKeys += 1;
      largest = Math.max(largest, line.held);
    }
    return { keys: this.lines.size, held, waiting, fullKeys, largestShare: held === 0 ? 0 : largest / held };
  }

  private releaser(key: string, line: Line): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      line.held -= 1;
      const next = line.waiters.shift();
      if (next) next.grant();
      else this.forgetIfIdle(key, line);
    };
  }

  private lineOf(key: string): Line {
    let line = this.lines.get(key);
    if (!line) {
      line = { held: 0, waiters: [] };
      this.lines.set(key, line);
    }
    return line;
  }

  private forgetIfIdle(key: string, line: Line): void {
    if (line.held === 0 && line.waiters.length === 0 && this.lines.get(key) === line) this.lines.delete(key);
  }

  private busy(key: string): ConcurrencyBusyError {
    const base = this.options.retryAfterMs ?? 1_000;
    return new ConcurrencyBusyError(key, new Date(Date.now() + base * (0.5 + Math.random())), this.name);
  }
}
