/** The lane of messages that name no key (e.g. no account): they share one lane and its cap. */
export const SHARED_LANE = '';

export interface LaneLimits {
  /** Handlers running at once, over all keys. */
  concurrency: number;
  /** Handlers running at once for one key. */
  perKeyConcurrency: number;
  /** Messages of one key waiting for a slot; one more is refused (the caller defers it). */
  perKeyBuffered: number;
}

/** A granted slot: call `release` once the message is settled. */
export type Release = () => void;

interface Lane {
  waiting: Array<(release: Release | undefined) => void>;
  running: number;
}

/**
 * Fair dispatch of handler slots by key (Hatchet's GROUP_ROUND_ROBIN, Temporal's fairness keys): each key has
 * a FIFO lane, and a freed slot goes to the next lane in turn whose key runs fewer than its cap. A key with a
 * bulk of slow messages holds at most `perKeyConcurrency` slots and `perKeyBuffered` places in the buffer.
 * Lanes exist only while they hold a message, so the work per slot is bounded by the buffer, not by the keys.
 */
export class LaneScheduler {
  /** Lanes in their turn order: a lane served goes to the back (a Map keeps insertion order). */
  private readonly lanes = new Map<string, Lane>();
  private running = 0;
  private buffered = 0;
  private closed = false;

  constructor(private readonly limits: LaneLimits) {}

  /**
   * A slot for a message of `key`: a promise of its release, resolved when its turn comes (undefined once
   * the scheduler closed: the message was not started); or undefined at once when the key's lane is full.
   */
  enter(key: string): Promise<Release | undefined> | undefined {
    if (this.closed) return Promise.resolve(undefined);
    const lane = this.lanes.get(key) ?? { waiting: [], running: 0 };
    if (
      lane.waiting.length === 0 &&
      this.running < this.limits.concurrency &&
      lane.running < this.limits.perKeyConcurrency
    ) {
      this.lanes.set(key, lane);
      return Promise.resolve(this.start(key, lane));
    }
    if (lane.waiting.length >= this.limits.perKeyBuffered) return undefined;
    this.lanes.set(key, lane);
    this.buffered += 1;
    return new Promise((resolve) => lane.waiting.push(resolve));
  }

  /** Hands every waiting message back unstarted (shutdown); later `enter`s get no slot either. */
  close(): void {
    this.closed = true;
    for (const lane of this.lanes.values()) {
      for (const resolve of lane.waiting.splice(0)) resolve(undefined);
    }
    this.buffered = 0;
  }

  /** For the gauges: slots busy, messages waiting, keys waiting. */
  stats(): { running: number; buffered: number; lanesWaiting: number } {
    let lanesWaiting = 0;
    for (const lane of this.lanes.values()) if (lane.waiting.length > 0) lanesWaiting += 1;
    return { running: this.running, buffered: this.buffered, lanesWaiting };
  }

  private start(key: string, lane: Lane): Release {
    this.running += 1;
    lane.running += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      lane.running -= 1;
      if (lane.running === 0 && lane.waiting.length === 0 && this.lanes.get(key) === lane)
        this.lanes.delete(key);
      this.dispatch();
    };
  }

  /** Fills free slots from the lanes in turn, skipping keys at their cap. */
  private dispatch(): void {
    while (this.running < this.limits.concurrency) {
      const next = this.nextLane();
      if (!next) return;
      const [key, lane] = next;
      const resolve = lane.waiting.shift();
      if (!resolve) return;
      this.buffered -= 1;
      // Served: to the back of the turn order.
      this.lanes.delete(key);
      this.lanes.set(key, lane);
      resolve(this.start(key, lane));
    }
  }

  private nextLane(): [string, Lane] | undefined {
    for (const entry of this.lanes) {
      const lane = entry[1];
      if (lane.waiting.length > 0 && lane.running < this.limits.perKeyConcurrency) return entry;
    }
    return undefined;
  }
}
