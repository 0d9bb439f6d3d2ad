/**
 * Sliding one-minute window per customer, kept as 60 one-second buckets so a check is O(1)
 * and a burst at the end of one minute still counts at the start of the next.
 */
export class PerMinuteLimiter {
  private windows = new Map<string, { buckets: Uint32Array; second: number; sum: number }>();

  constructor(
    public limit: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts the call; false when it is over the limit (refused calls are not counted). */
  take(customer: string): boolean {
    const second = Math.floor(this.now() / 1000);
    let w = this.windows.get(customer);
    if (!w) {
      w = { buckets: new Uint32Array(60), second, sum: 0 };
      this.windows.set(customer, w);
    }
    const elapsed = second - w.second;
    if (elapsed >= 60) {
      w.buckets.fill(0);
      w.sum = 0;
    } else {
      for (let s = w.second + 1; s <= second; s++) {
        const i = s % 60;
        w.sum -= w.buckets[i] as number;
        w.buckets[i] = 0;
      }
    }
    w.second = second;
    if (w.sum >= this.limit) return false;
    w.buckets[second % 60]++;
    w.sum++;
    return true;
  }

  used(customer: string): number {
    return this.windows.get(customer)?.sum ?? 0;
  }

  reset(): void {
    this.windows.clear();
  }
}
