import { isIP } from 'node:net';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { RECORD_FAILURE } from './failed-key-attempts.sql';

/** How many wrong keys one client may present in a window before its wrong keys get 429. */
export interface FailedAttemptsPolicy {
  maxFailures: number;
  windowMs: number;
  /** Wrong keys this process writes down per second at most; past that they are counted in memory only. */
  writesPerSecond: number;
  /** Clients remembered in memory at most (the oldest window is forgotten first). */
  remembered: number;
}

export const DEFAULT_FAILED_ATTEMPTS_POLICY: FailedAttemptsPolicy = {
  maxFailures: 10,
  windowMs: 60_000,
  writesPerSecond: 50,
  remembered: 10_000,
};

/** What one more wrong key from an address makes of its window. */
export interface FailedAttempt {
  /** Wrong keys from the client in its current window, this one included. */
  failures: number;
  /** Milliseconds until the window ends. */
  remainingMs: number;
}

/**
 * Wrong admin keys counted per client in Postgres, so that every registry replica counts the same window.
 * Only wrong keys are counted, and only they are refused (429) once over the limit: a valid key is never
 * refused for what others at the same address (everyone behind one proxy) got wrong. Keys are 32+ random
 * characters in production, so the limit slows floods and weak demo keys, not a real guess.
 *
 * A flood costs the database little: a client already over the limit in this process is answered from
 * memory, and past `writesPerSecond` wrong keys are counted in memory only. An IPv6 client is its /64 (one
 * customer line): rotating addresses inside it does not make a new client.
 */
@Injectable()
export class FailedKeyAttempts {
  readonly policy: FailedAttemptsPolicy = { ...DEFAULT_FAILED_ATTEMPTS_POLICY };
  private readonly windows = new Map<string, { failures: number; endsAt: number }>();
  private writes = { second: 0, count: 0 };

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async recordFailure(address: string): Promise<FailedAttempt> {
    const client = clientOf(address);
    const now = Date.now();
    const known = this.windows.get(client);
    const local = known && known.endsAt > now ? known : undefined;
    if (local) local.failures += 1;
    // Once over the limit here, refused from memory: the shared count already says so to every replica.
    if ((local && local.failures > this.policy.maxFailures) || !this.mayWrite(now)) {
      const window = local ?? this.remember(client, { failures: 1, endsAt: now + this.policy.windowMs });
      return { failures: window.failures, remainingMs: Math.max(0, window.endsAt - now) };
    }
    // An upsert always returns its row.
    const [row] = await RECORD_FAILURE.rows(this.dataSource, {
      address: client.slice(0, 200),
      windowMs: this.policy.windowMs,
    });
    const { failures: shared, remaining_ms: remainingMs } = row;
    // The shared count, or what this process saw when some of it was not written down.
    const window = this.windows.get(client);
    if (window && window.endsAt > now) {
      // Answers of concurrent requests come back in any order: the count only grows within a window.
      window.failures = Math.max(window.failures, shared);
      window.endsAt = now + remainingMs;
      return { failures: window.failures, remainingMs };
    }
    this.remember(client, { failures: shared, endsAt: now + remainingMs });
    return { failures: shared, remainingMs };
  }

  private mayWrite(now: number): boolean {
    const second = Math.floor(now / 1000);
    if (this.writes.second !== second) this.writes = { second, count: 0 };
    if (this.writes.count >= this.policy.writesPerSecond) return false;
    this.writes.count += 1;
    return true;
  }

  private remember(client: string, window: { failures: number; endsAt: number }) {
    this.windows.delete(client);
    this.windows.set(client, window);
    // A Map keeps insertion order: the first entries are the least recently refreshed.
    for (const [oldest] of this.windows) {
      if (this.windows.size <= this.policy.remembered) break;
      this.windows.delete(oldest);
    }
    return window;
  }
}

/** The client a wrong key is counted against: an IPv4 address (mapped ones too), or an IPv6 address's /64. */
export function clientOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.toLowerCase().replace(/%.*$/, '').split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [
        ...headGroups,
        ...new Array<string>(8 - headGroups.length - tailGroups.length).fill('0'),
        ...tailGroups,
      ]
    : headGroups;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
