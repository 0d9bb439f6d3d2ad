/** How many wrong keys one client address may present in a window before it is refused for the rest of it. */
export interface FailedAttemptsPolicy {
  maxFailures: number;
  windowMs: number;
}

const DEFAULT_FAILED_ATTEMPTS_POLICY: FailedAttemptsPolicy = { maxFailures: 10, windowMs: 60_000 };
/** Addresses remembered at most; the oldest windows go first, so a flood cannot grow memory. */
const MAX_TRACKED = 10_000;

/**
 * Wrong admin keys counted per client address (in this process): over the limit, every request from the
 * address is refused until its window ends, right key or not, so guessing cannot go on at full speed.
 */
export class FailedKeyAttempts {
  private readonly windows = new Map<string, { startedAt: number; failures: number }>();

  constructor(
    private readonly policy: FailedAttemptsPolicy = DEFAULT_FAILED_ATTEMPTS_POLICY,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds until the address may try again, or 0 when it may now. */
  blockedForMs(address: string): number {
    const window = this.current(address);
    if (!window || window.failures < this.policy.maxFailures) return 0;
    return window.startedAt + this.policy.windowMs - this.now();
  }

  recordFailure(address: string): void {
    const window = this.current(address);
    if (window) {
      window.failures += 1;
      return;
    }
    if (this.windows.size >= MAX_TRACKED) this.prune();
    this.windows.set(address, { startedAt: this.now(), failures: 1 });
  }

  private current(address: string): { startedAt: number; failures: number } | undefined {
    const window = this.windows.get(address);
    if (window && this.now() - window.startedAt >= this.policy.windowMs) {
      this.windows.delete(address);
      return undefined;
    }
    return window;
  }

  private prune(): void {
    for (const address of this.windows.keys()) {
      this.current(address);
      if (this.windows.size < MAX_TRACKED) return;
    }
    const oldest = this.windows.keys().next().value;
    if (oldest !== undefined) this.windows.delete(oldest);
  }
}
