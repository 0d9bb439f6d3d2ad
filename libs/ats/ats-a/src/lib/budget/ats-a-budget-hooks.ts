import type { Logger } from '@nestjs/common';
import { type AtsCallHooks, retryAtOf } from '@connector/ats-http';
import {
  type PostgresDailyQuota,
  type QuotaConfig,
  type QuotaPriority,
  RateLimitExceededError,
  type WaiterKind,
} from '@connector/rate-limiter';
import { quotaHeadersOf } from './ats-a-budget';
import { meteredAcquire } from '@connector/ats-core';

/**
 * This process's ATS-A calls per customer system that got budget and no answer yet, and whether the ATS has
 * answered at all. An answer's X-RateLimit-Remaining counts only the calls the ATS had seen: the ones sent
 * after the answered one and still on their way are added before the plan takes it as the count, or the plan
 * would hand them out again (the burst after another integration spent the quota met 429s). Those sent before
 * it reached the ATS first: counting them too would hold the plan short of the limit for the rest of the day
 * (it never lowers a count). Until this process heard an answer, one call goes alone and the others wait for
 * what it learns: only calls already in flight can meet a 429.
 */
export class AtsACallsInFlight {
  /** Per key, the sequence numbers of the calls in flight, in the order they got budget. */
  private readonly inFlight = new Map<string, Set<number>>();
  private sequence = 0;
  private readonly heard = new Set<string>();
  private readonly probes = new Map<string, { done: Promise<void>; end: () => void }>();

  /** `maxWaitMs`: the longest a call waits for the one gone alone (its timeout, budget wait included). */
  constructor(private readonly maxWaitMs = 60_000) {}

  /** Before taking budget: true when this call is the one that goes alone (call `ended` if it never goes). */
  async awaitFirstAnswer(key: string): Promise<boolean> {
    while (!this.heard.has(key)) {
      const probe = this.probes.get(key);
      if (!probe) {
        let end!: () => void;
        const done = new Promise<void>((resolve) => (end = resolve));
        this.probes.set(key, { done, end });
        return true;
      }
      // Never stuck behind a call whose end went unreported: after a while, go without the answer.
      let timer: NodeJS.Timeout | undefined;
      const waited = await Promise.race([
        probe.done.then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), this.maxWaitMs))),
      ]);
      clearTimeout(timer);
      if (!waited) this.heard.add(key);
    }
    return false;
  }

  /** A call got budget and goes out: its number, for `answered` or `noAnswer`. */
  sent(key: string): number {
    const call = ++this.sequence;
    let calls = this.inFlight.get(key);
    if (!calls) this.inFlight.set(key, (calls = new Set()));
    calls.add(call);
    return call;
  }

  /** Call `call` was answered: how many calls sent after it are still on their way. */
  answered(key: string, call: number): number {
    this.heard.add(key);
    this.settle(key, call);
    let later = 0;
    for (const other of this.inFlight.get(key) ?? []) if (other > call) later++;
    return later;
  }

  /** No answer (network error, timeout, aborted before sending): not in flight any more, nothing learnt. */
  noAnswer(key: string, call: number): void {
    this.settle(key, call);
  }

  /** The call that went alone ended without an answer: the next one goes alone. */
  ended(key: string): void {
    const probe = this.probes.get(key);
    this.probes.delete(key);
    probe?.end();
  }

  private settle(key: string, call: number): void {
    this.inFlight.get(key)?.delete(call);
    this.ended(key);
  }
}

export interface AtsABudgetOptions {
  /** Pushes may use the reserve, syncs the sync share; `either` (a token both need): the first that has budget. */
  priority: QuotaPriority | 'either';
  /** How long a call may wait for budget before failing with RateLimitExceededError. */
  maxWaitMs: number;
  /** The work these calls are for: counted as waiting while it has no budget. */
  waiter?: { id: string; kind: WaiterKind };
  onCall?: (endpoint: string, status: number) => void;
}

/**
 * The hooks that put ATS-A calls on the customer system's daily quota: budget before each call, the answer's
 * X-RateLimit-* headers (plus this process's calls still in flight) after it, a pause until the named reset
 * on a 429. Used by the workers' clients and by auth-gateway's token requests alike.
 */
export function atsABudgetHooks(
  deps: { quota: PostgresDailyQuota; calls: AtsACallsInFlight; logger: Pick<Logger, 'warn'> },
  target: { key: string; config: QuotaConfig },
  options: AtsABudgetOptions,
): AtsCallHooks {
  const { quota, calls, logger } = deps;
  const { key, config } = target;
  const { waiter } = options;
  // This client's calls in the order they went out: a client's calls are one after another.
  const mine: number[] = [];
  return {
    beforeCall: async () => {
      const alone = await calls.awaitFirstAnswer(key);
      try {
        await takeBudget(quota, target, options);
      } catch (error) {
        if (alone) calls.ended(key);
        if (waiter && error instanceof RateLimitExceededError) {
          await quota.waiting(key, waiter.id, waiter.kind, error.retryAt).catch(() => undefined);
        }
        throw error;
      }
      mine.push(calls.sent(key));
      // Not awaited: the quota writes finished waiters in batches (within 50 ms), and the call need not
      // wait for that bookkeeping (it did, which added ~25 ms to every ATS-A call of a message).
      if (waiter) void quota.done(key, waiter.id).catch(() => undefined);
    },
    afterCall: ({ endpoint, status, headers }) => {
      options.onCall?.(endpoint, status);
      const now = new Date();
      const stillInFlight = calls.answered(key, mine.shift() ?? Number.MAX_SAFE_INTEGER);
      // The ATS's own count is authoritative: other integrations of the customer spend the same quota.
      void quota
        .observe(key, config, quotaHeadersOf(headers, now, stillInFlight))
        .catch((error: unknown) => logger.warn(`quota headers of ${key}: ${String(error)}`));
      if (status === 429) {
        const until = retryAtOf(headers, now, 60_000);
        void quota
          .pauseUntil(key, config, until)
          .then(() => waiter && quota.waiting(key, waiter.id, waiter.kind, until))
          .catch((error: unknown) => logger.warn(`pausing ${key}: ${String(error)}`));
      }
    },
    afterNoAnswer: () => calls.noAnswer(key, mine.shift() ?? Number.MAX_SAFE_INTEGER),
  };
}

async function takeBudget(
  quota: PostgresDailyQuota,
  { key, config }: { key: string; config: QuotaConfig },
  { priority, maxWaitMs }: AtsABudgetOptions,
): Promise<void> {
  const take = (side: QuotaPriority, waitMs: number) =>
    meteredAcquire('ats-a', side, () => quota.acquire(key, 1, config, { priority: side, maxWaitMs: waitMs }));
  if (priority !== 'either') return take(priority, maxWaitMs);
  try {
    await take('push', 0);
  } catch (error) {
    if (!(error instanceof RateLimitExceededError)) throw error;
    // What the sync share still holds serves a token as well: both sides need one.
    await take('sync', 0).catch((second: unknown) => {
      if (!(second instanceof RateLimitExceededError)) throw second;
      throw second.retryAt < error.retryAt ? second : error;
    });
  }
}
