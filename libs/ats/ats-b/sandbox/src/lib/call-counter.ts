/** Calls per endpoint key (`'GET search/JobOrder'`, `'POST /oauth/token refresh_token'` …) and in total. */
export class CallCounter {
  private counts = new Map<string, number>();
  private total = 0;

  record(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.total++;
  }

  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.counts.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }

  get totalCalls(): number {
    return this.total;
  }

  reset(): void {
    this.counts.clear();
    this.total = 0;
  }
}
