import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

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
 * One statement: a new window for an address never seen or whose window ended, else one more failure in it.
 * Every SET expression reads the row as it was, so both CASEs agree.
 */
const RECORD_FAILURE = `
  INSERT INTO "admin_key_failure" AS f ("address", "window_started_at", "failures")
  VALUES ($1, now(), 1)
  ON CONFLICT ("address") DO UPDATE SET
    "failures" = CASE WHEN f."window_started_at" <= now() - make_interval(secs => $2 / 1000.0)
                      THEN 1 ELSE f."failures" + 1 END,
    "window_started_at" = CASE WHEN f."window_started_at" <= now() - make_interval(secs => $2 / 1000.0)
                               THEN now() ELSE f."window_started_at" END
  RETURNING "failures",
    GREATEST(0, ceil(extract(epoch FROM f."window_started_at" + make_interval(secs => $2 / 1000.0) - now()) * 1000))::int
      AS "remaining_ms"`;

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
    const rows = (await this.dataSource.query(RECORD_FAILURE, [
      address.slice(0, 200),
      this.policy.windowMs,
    ])) as Array<{ failures: number; remaining_ms: number }>;
    // An upsert always returns its row.
    const [{ failures, remaining_ms: remainingMs }] = rows as [(typeof rows)[number]];
    return { failures, remainingMs };
  }
}
