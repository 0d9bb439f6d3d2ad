import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { numberColumn } from '@connector/persistence';
import { RECORD_FAILURE } from './failed-key-attempts.sql';

/** How many wrong keys one client address may present in a window before its wrong keys get 429. */
export interface FailedAttemptsPolicy {
  maxFailures: number;
  windowMs: number;
}

export const DEFAULT_FAILED_ATTEMPTS_POLICY: FailedAttemptsPolicy = { maxFailures: 10, windowMs: 60_000 };

/** What one more wrong key from an address makes of its window. */
export interface FailedAttempt {
  /** Wrong keys from the address in its current window, this one included. */
  failures: number;
  /** Milliseconds until the window ends. */
  remainingMs: number;
}

/**
 * Wrong admin keys counted per client address in Postgres, so that every registry replica counts the same
 * window. Only wrong keys are counted, and only they are refused (429) once over the limit: a valid key is
 * never refused for what others at the same address (everyone behind one proxy) got wrong. Keys are 32+
 * random characters in production, so the limit slows floods and weak demo keys, not a real guess.
 */
@Injectable()
export class FailedKeyAttempts {
  readonly policy: FailedAttemptsPolicy = DEFAULT_FAILED_ATTEMPTS_POLICY;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async recordFailure(address: string): Promise<FailedAttempt> {
    // An upsert always returns its row.
    const [row] = await RECORD_FAILURE.rows(this.dataSource, {
      address: address.slice(0, 200),
      windowMs: this.policy.windowMs,
    });
    return { failures: numberColumn(row, 'failures'), remainingMs: numberColumn(row, 'remaining_ms') };
  }
}
