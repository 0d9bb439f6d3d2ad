import {
  DeferredMessageError,
  isRetryable,
  MessageHandlingError,
  TransientMessageError,
} from './message-errors';

/**
 * Default delays between attempts: growing, adding up to about 80 minutes, so a message rides out an
 * ATS outage of an hour before it is dead-lettered.
 */
export const DEFAULT_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 300_000, 600_000, 1_200_000, 1_800_000];

/**
 * Short waits for deferrals only (a busy ATS system, a full lane): a deferral need not wait the shortest
 * attempt delay. Attempts keep their ladder; each tier is a retry queue of its own.
 */
export const DEFAULT_DEFERRAL_DELAYS_MS = [1_000, 2_000];

/** Every delay a consumer's retry queues hold: the attempts' ladder and the deferrals' short tiers. */
export function retryTiersOf(options: {
  retryDelaysMs?: readonly number[];
  deferralDelaysMs?: readonly number[];
}): number[] {
  const tiers = [
    ...(options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS),
    ...(options.deferralDelaysMs ?? DEFAULT_DEFERRAL_DELAYS_MS),
  ];
  return [...new Set(tiers)].sort((a, b) => a - b);
}

/** A deferred message is looked at again at least this often, so a raised limit or an early reset is seen. */
export const MAX_DEFERRAL_HOP_MS = 300_000;

export type FailureDecision =
  | { action: 'retry'; delayMs: number; nextAttempt: number }
  /** Waits without counting an attempt (DeferredMessageError). */
  | { action: 'defer'; delayMs: number }
  | { action: 'dead-letter'; reason: string; retryable: boolean };

/**
 * What to do with a message whose handler failed on attempt `attempt` (1-based).
 * Each delay tier is its own queue, so a delay is always one of `delaysMs`.
 */
export function decideOnFailure(
  error: unknown,
  attempt: number,
  delaysMs: readonly number[],
  /** Extra tiers a deferral may also use (DEFAULT_DEFERRAL_DELAYS_MS). */
  deferralDelaysMs: readonly number[] = [],
): FailureDecision {
  attempt = attemptNumber(attempt);
  const reason = describeError(error);
  if (error instanceof DeferredMessageError) {
    const tiers = [...delaysMs, ...deferralDelaysMs];
    return { action: 'defer', delayMs: deferralDelay(error.until.getTime() - Date.now(), tiers) };
  }
  if (!isRetryable(error)) return { action: 'dead-letter', reason, retryable: false };
  if (attempt > delaysMs.length) {
    return { action: 'dead-letter', reason: `gave up after ${attempt} attempts: ${reason}`, retryable: true };
  }
  const notBefore = error instanceof TransientMessageError ? (error.notBeforeMs ?? 0) : 0;
  // The tier for this attempt, or a later (longer) one when the error says to wait at least that long.
  const tier = delaysMs.findIndex((delay, index) => index >= attempt - 1 && delay >= notBefore);
  const delayMs = tier === -1 ? delaysMs[delaysMs.length - 1] : delaysMs[tier];
  return { action: 'retry', delayMs, nextAttempt: attempt + 1 };
}

/**
 * The attempt a message is on, from its untrusted `x-attempt` header: an integer of at least 1, else 1 (a
 * missing, non-numeric or negative value must neither retry forever nor earn extra attempts).
 */
export function attemptNumber(value: unknown): number {
  return wholeNumber(value, 1) ?? 1;
}

/** How often a message waited (`x-deferrals`): an integer of at least 0, else 0. */
export function deferralCount(value: unknown): number {
  return wholeNumber(value, 0) ?? 0;
}

function wholeNumber(value: unknown, min: number): number | undefined {
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d+$/.test(value)
        ? Number(value)
        : NaN;
  return Number.isSafeInteger(number) && number >= min ? number : undefined;
}

export function describeError(error: unknown): string {
  try {
    if (error instanceof MessageHandlingError || error instanceof Error) return String(error.message);
    if (typeof error === 'object' && error !== null && 'message' in error) return String(error.message);
    return String(error);
  } catch {
    return 'unknown error';
  }
}

/**
 * The delay tier for a wait of `waitMs`: the longest one that does not overshoot it (nor MAX_DEFERRAL_HOP_MS),
 * or the shortest when the wait is shorter than every tier. A long wait takes several hops.
 */
export function deferralDelay(waitMs: number, delaysMs: readonly number[]): number {
  const cap = Math.min(Math.max(0, waitMs), MAX_DEFERRAL_HOP_MS);
  const fitting = delaysMs.filter((delay) => delay <= cap);
  return fitting.length > 0 ? Math.max(...fitting) : Math.min(...delaysMs);
}

/** The longest an overflowing lane's message waits per hop: a bulk is slowed, never parked for long. */
export const MAX_OVERFLOW_WAIT_MS = 30_000;

/**
 * The wait of a message deferred because its key's lane was full, after `deferrals` earlier waits: 1 s, then
 * doubling up to MAX_OVERFLOW_WAIT_MS, as a tier of `tiersMs`; a long bulk comes back less and less often.
 */
export function overflowDelay(deferrals: number, tiersMs: readonly number[]): number {
  const wait = Math.min(1_000 * 2 ** Math.min(deferrals, 16), MAX_OVERFLOW_WAIT_MS);
  return deferralDelay(wait, tiersMs);
}

/**
 * A wait cut by up to a quarter at random, so messages deferred together do not all come back together.
 * (Used as a copy's own expiry in a tier queue: it leaves when the first of the two ends.)
 */
export function jittered(delayMs: number, random: () => number = Math.random): number {
  return Math.max(1, Math.round(delayMs * (1 - 0.25 * random())));
}
