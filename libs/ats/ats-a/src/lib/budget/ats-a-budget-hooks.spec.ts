import type { PostgresDailyQuota, QuotaHeaders } from '@connector/rate-limiter';
import { RateLimiterErrorCode, RateLimitExceededError } from '@connector/rate-limiter';
import { AtsACallsInFlight, atsABudgetHooks } from './ats-a-budget-hooks';

describe(atsABudgetHooks.name, () => {
  const target = { key: 'ats-a:https://acme.example', config: { limit: 70 } };
  const logger = { warn: () => undefined };

  function fakeQuota(refuse: (priority: string) => Date | undefined = () => undefined) {
    const observed: QuotaHeaders[] = [];
    const asked: string[] = [];
    const quota = {
      acquire: async (_key: string, _cost: number, _config: unknown, { priority }: { priority: string }) => {
        asked.push(priority);
        const until = refuse(priority);
        if (until) throw new RateLimitExceededError(RateLimiterErrorCode.Exceeded, target.key, until);
        return { waitedMs: 0 };
      },
      observe: async (_key: string, _config: unknown, headers: QuotaHeaders) => {
        observed.push(headers);
      },
      pauseUntil: async () => undefined,
      waiting: async () => undefined,
      done: async () => undefined,
    } as unknown as PostgresDailyQuota;
    return { quota, observed, asked };
  }

  const answer = (remaining: number) =>
    new Headers({ 'X-RateLimit-Limit': '70', 'X-RateLimit-Remaining': String(remaining) });

  it('takes the calls still in flight off what an answer says remains: the ATS has not counted them yet', async () => {
    const { quota, observed } = fakeQuota();
    const calls = new AtsACallsInFlight();
    const hooks = atsABudgetHooks({ quota, calls, logger }, target, { priority: 'push', maxWaitMs: 0 });
    // The first call goes alone and its answer is heard; then ten go out together.
    await hooks.beforeCall!('POST /api/candidates');
    hooks.afterCall!({ endpoint: 'POST /api/candidates', status: 201, headers: answer(24) });
    for (let i = 0; i < 10; i++) await hooks.beforeCall!('POST /api/candidates');
    // The first of the ten answers: 45 spent by another integration, 2 by us as the ATS saw it.
    hooks.afterCall!({ endpoint: 'POST /api/candidates', status: 201, headers: answer(23) });
    expect(observed.map((h) => h.remaining)).toEqual([24, 23 - 9]);
    // A call that got no answer is not in flight any more.
    hooks.afterNoAnswer!('POST /api/candidates');
    hooks.afterCall!({ endpoint: 'POST /api/candidates', status: 201, headers: answer(22) });
    expect(observed.at(-1)?.remaining).toBe(22 - 7);
  });

  it('adds only the calls sent after the answered one: those sent before it reached the ATS first', async () => {
    const { quota, observed } = fakeQuota();
    const calls = new AtsACallsInFlight();
    const client = () =>
      atsABudgetHooks({ quota, calls, logger }, target, { priority: 'push', maxWaitMs: 0 });
    const [first, second, third] = [client(), client(), client()];
    await first.beforeCall!('x');
    first.afterCall!({ endpoint: 'x', status: 201, headers: answer(30) });
    await first.beforeCall!('x');
    await second.beforeCall!('x');
    await third.beforeCall!('x');
    // The second's answer: the first went out before it (counted already), the third after it (not yet).
    second.afterCall!({ endpoint: 'x', status: 201, headers: answer(27) });
    expect(observed.at(-1)?.remaining).toBe(27 - 1);
    third.afterCall!({ endpoint: 'x', status: 201, headers: answer(26) });
    expect(observed.at(-1)?.remaining).toBe(26);
  });

  it('lets one call go alone until the ATS first answered, the others waiting for what it learns', async () => {
    const { quota } = fakeQuota();
    const calls = new AtsACallsInFlight();
    const hooks = atsABudgetHooks({ quota, calls, logger }, target, { priority: 'push', maxWaitMs: 0 });
    await hooks.beforeCall!('POST /api/candidates');
    let second = false;
    const waiting = hooks.beforeCall!('POST /api/candidates').then(() => (second = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(second).toBe(false);
    hooks.afterCall!({ endpoint: 'POST /api/candidates', status: 201, headers: answer(24) });
    await waiting;
    expect(second).toBe(true);
  });

  it('never leaves the others stuck behind a call whose end went unreported', async () => {
    const calls = new AtsACallsInFlight(50);
    expect(await calls.awaitFirstAnswer(target.key)).toBe(true);
    const started = Date.now();
    expect(await calls.awaitFirstAnswer(target.key)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
  });

  it('hands the turn to go alone on when that call got no budget or no answer', async () => {
    let refuse = true;
    const { quota } = fakeQuota(() => (refuse ? new Date(Date.now() + 60_000) : undefined));
    const calls = new AtsACallsInFlight();
    const hooks = atsABudgetHooks({ quota, calls, logger }, target, { priority: 'push', maxWaitMs: 0 });
    await expect(hooks.beforeCall!('x')).rejects.toBeInstanceOf(RateLimitExceededError);
    refuse = false;
    await hooks.beforeCall!('x');
    hooks.afterNoAnswer!('x');
    await expect(hooks.beforeCall!('x')).resolves.toBeUndefined();
  });

  it("serves a token from either side's budget, and refuses it with the earlier retry time when neither has any", async () => {
    const soon = new Date(Date.now() + 10_000);
    const late = new Date(Date.now() + 60_000);
    const pushOnly = fakeQuota((priority) => (priority === 'push' ? late : undefined));
    const token = { priority: 'either' as const, maxWaitMs: 0 };
    const calls = new AtsACallsInFlight();
    await atsABudgetHooks({ quota: pushOnly.quota, calls, logger }, target, token).beforeCall!(
      'POST /api/token',
    );
    calls.answered(target.key, 1);
    expect(pushOnly.asked).toEqual(['push', 'sync']);

    const neither = fakeQuota((priority) => (priority === 'push' ? late : soon));
    const refused = await atsABudgetHooks({ quota: neither.quota, calls, logger }, target, token).beforeCall!(
      'POST /api/token',
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitExceededError);
    expect((refused as RateLimitExceededError).retryAt).toEqual(soon);
  });
});
