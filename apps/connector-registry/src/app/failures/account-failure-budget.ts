/** What one account may keep in the failure log in an hour (bodies and their bytes). */
export interface FailureBudgetLimits {
  bodiesPerHour: number;
  bytesPerHour: number;
  /** Accounts remembered at most (the least recently seen is forgotten first). */
  accounts?: number;
}

const HOUR_MS = 3_600_000;

/**
 * A cap per account on the failure log: past it, a dead letter is still recorded (who, what, why) but its body
 * is not kept, so one account's flood of failures cannot fill the database that every account's log shares.
 * Counted in this process (the collector drains the dead-letter queues); bounded in memory.
 */
export class AccountFailureBudget {
  private readonly hours = new Map<string, { hour: number; bodies: number; bytes: number }>();

  constructor(private readonly limits: FailureBudgetLimits) {}

  /** True when this body may be kept (and counts it); false when the account is over its cap this hour. */
  take(accountId: string, bytes: number, now = Date.now()): boolean {
    const hour = Math.floor(now / HOUR_MS);
    let used = this.hours.get(accountId);
    if (!used || used.hour !== hour) used = { hour, bodies: 0, bytes: 0 };
    this.hours.delete(accountId);
    this.hours.set(accountId, used);
    for (const [oldest] of this.hours) {
      if (this.hours.size <= (this.limits.accounts ?? 10_000)) break;
      this.hours.delete(oldest);
    }
    if (used.bodies + 1 > this.limits.bodiesPerHour || used.bytes + bytes > this.limits.bytesPerHour)
      return false;
    used.bodies += 1;
    used.bytes += bytes;
    return true;
  }

  /** The words stored with a dead letter whose body was not kept. */
  describe(): string {
    return (
      `body not kept: the account's failure log is over its cap of ${this.limits.bodiesPerHour} messages or ` +
      `${Math.round(this.limits.bytesPerHour / 1_048_576)} MiB an hour; it cannot be replayed`
    );
  }
}
