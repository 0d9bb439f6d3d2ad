import { AtsSystemUnavailableError, toMessageError } from '@connector/ats-client-factory';
import { AtsError } from '@connector/ats-http';
import type { RunWait } from '@connector/contracts';
import { DEFAULT_RETRY_DELAYS_MS, describeError } from '@connector/messaging';
import { ConcurrencyBusyError, RateLimitExceededError } from '@connector/rate-limiter';

/** Waits after transient failures: the transport's tiers, about 80 minutes in all (an ATS outage of an hour). */
export const RUN_RETRY_DELAYS_MS: readonly number[] = DEFAULT_RETRY_DELAYS_MS;
/** A 429 without a reset time: wait this long. */
const RATE_LIMIT_FALLBACK_MS = 60_000;

export type RunFailureDecision =
  /**
   * Budget used up or the ATS said 429 (`for: 'budget'`), or its ATS system busy or failing (`for: 'ats'`): wait,
   * then go on from the cursor; not an attempt.
   */
  | { action: 'wait'; until: Date; inline: boolean; reason: string; for: RunWait }
  /** May pass: park the run and try again from the cursor at `until`. */
  | { action: 'retry'; until: Date; attempts: number; reason: string }
  /** Will not pass (or attempts ran out): the run fails, closing nothing; `code` names a limit it hit. */
  | { action: 'fail'; reason: string; code?: string };

/** A bound on what a hostile or broken ATS can make a run do, each its run warning's code. */
type RunLimitCode =
  'RUN_PAGE_LIMIT' | 'RUN_DEADLINE' | 'ATS_ANSWER_TOO_LARGE' | 'ATS_ANSWER_TOO_MANY_RECORDS';

/** What a run that stopped at a limit kept and did not do, in the admin's words. */
const KEPT = 'The run stopped there, kept what it had published and closed nothing by absence.';

/**
 * What a run does about an error, from the one ATS-error classification (toMessageError): rate limits wait
 * for their reset (in place when short, parked when long), transient errors retry with growing delays,
 * permanent ones fail the run.
 */
export function decideRunFailure(
  error: unknown,
  context: { connectorId: string; attempts: number; now: Date; inlineWaitMaxMs: number },
): RunFailureDecision {
  const reason = describeError(error);
  // Its ATS system is busy with its other work, or failing (breaker open): parked, not an attempt, and never
  // waited for in place (that would hold a run slot). A failing system's probe counts as the attempt.
  const systemFree = waitingForSystem(error);
  if (systemFree)
    return {
      action: 'wait',
      until: systemFree,
      inline: false,
      reason: `waiting for this ATS: ${reason}`,
      for: 'ats',
    };
  const retryAt = rateLimitReset(error, context.now);
  if (retryAt) {
    const waitMs = Math.max(0, retryAt.getTime() - context.now.getTime());
    return {
      action: 'wait',
      until: retryAt,
      inline: waitMs <= context.inlineWaitMaxMs,
      reason,
      for: 'budget',
    };
  }
  const broken = brokenAnswer(error);
  if (broken) return { action: 'fail', ...broken };
  const classified = toMessageError(error, context.connectorId);
  // A vacancy run's failure names no candidate: the ATS's own words (details) tell the admin what to fix.
  const told = [classified.message, ...(classified.details ?? [])].join(': ');
  if (!classified.retryable) return { action: 'fail', reason: told };
  const attempts = context.attempts + 1;
  if (attempts > RUN_RETRY_DELAYS_MS.length) {
    return { action: 'fail', reason: `gave up after ${context.attempts} retries: ${told}` };
  }
  const notBefore = 'notBeforeMs' in classified ? Number(classified.notBeforeMs ?? 0) : 0;
  const delayMs = Math.max(RUN_RETRY_DELAYS_MS[attempts - 1], notBefore);
  return { action: 'retry', until: new Date(context.now.getTime() + delayMs), attempts, reason };
}

function waitingForSystem(error: unknown): Date | undefined {
  if (error instanceof ConcurrencyBusyError) return error.retryAt;
  if (error instanceof AtsSystemUnavailableError && !error.countsAsAttempt) return error.until;
  return undefined;
}

function rateLimitReset(error: unknown, now: Date): Date | undefined {
  if (error instanceof RateLimitExceededError) return error.retryAt;
  if (error instanceof AtsError && error.kind === 'rate_limited') {
    return error.retryAt ?? new Date(now.getTime() + RATE_LIMIT_FALLBACK_MS);
  }
  return undefined;
}

/** An ATS answer refused for its size (AtsHttp) or its record count (the clients): the same again would be. */
function brokenAnswer(error: unknown): { reason: string; code: RunLimitCode } | undefined {
  if (!(error instanceof AtsError)) return undefined;
  if (error.code === 'answer_too_large') {
    return {
      code: 'ATS_ANSWER_TOO_LARGE',
      reason: `The ATS sent an answer larger than a run reads (${error.endpoint}). ${KEPT}`,
    };
  }
  if (error.code === 'too_many_records') {
    return {
      code: 'ATS_ANSWER_TOO_MANY_RECORDS',
      reason: `The ATS sent more records in one page than were asked for (${error.endpoint}), a broken answer. ${KEPT}`,
    };
  }
  return undefined;
}

/** A run that went on past RUN_DEADLINE_MINUTES. */
export class RunDeadlineReached extends Error {
  readonly code = 'RUN_DEADLINE';

  constructor(minutes: number) {
    super(
      `The run took longer than ${minutes} minutes, the most one run may take (the ATS answered too slowly ` +
        `or listed too much). ${KEPT}`,
    );
    this.name = 'RunDeadlineReached';
  }
}
