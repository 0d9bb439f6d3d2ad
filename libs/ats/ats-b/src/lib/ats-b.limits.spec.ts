import { atsBLimitsOf } from './ats-b.limits';
import { atsBBudget } from './budget/ats-b-budget';
import { AtsBVacancyEventSource } from './vacancies/ats-b-vacancy-events.source';

const DAY_MS = 86_400_000;

describe(atsBLimitsOf.name, () => {
  it("defaults to the vendor's least convenient documented limits", () => {
    // 1 500 a minute; the event guide's 15 subscriptions and 7 days (the usage-limits page: 50 and 30).
    expect(atsBLimitsOf({})).toEqual({
      requestsPerMinute: 1_500,
      maxEventSubscriptions: 15,
      eventRetentionMs: 7 * DAY_MS,
    });
  });

  it('takes each limit from its variable', () => {
    expect(
      atsBLimitsOf({
        ATS_B_REQUESTS_PER_MINUTE: '3000',
        ATS_B_MAX_EVENT_SUBSCRIPTIONS: '50',
        ATS_B_EVENT_RETENTION_DAYS: '30',
      }),
    ).toEqual({ requestsPerMinute: 3_000, maxEventSubscriptions: 50, eventRetentionMs: 30 * DAY_MS });
  });

  it('refuses a value that is not a whole number in range, naming the variable', () => {
    expect(() => atsBLimitsOf({ ATS_B_MAX_EVENT_SUBSCRIPTIONS: '0' })).toThrow(
      /^ATS_B_MAX_EVENT_SUBSCRIPTIONS: /,
    );
    expect(() => atsBLimitsOf({ ATS_B_EVENT_RETENTION_DAYS: 'seven' })).toThrow(
      /^ATS_B_EVENT_RETENTION_DAYS: /,
    );
  });

  it("sizes a connector's budget by the per-minute limit (1 500: 25 a second, bursts of 100, 20 for pushes)", () => {
    expect(atsBBudget({ id: 'c1' }, { requestsPerMinute: 1_500 })).toEqual({
      key: 'ats-b:c1',
      bucket: { capacity: 100, refillPerSecond: 25, reserve: 20 },
    });
    expect(atsBBudget({ id: 'c1' }, { requestsPerMinute: 600 }).bucket).toEqual({
      capacity: 40,
      refillPerSecond: 10,
      reserve: 8,
    });
  });

  it('gives the event source the subscription limits vacancy-sync keeps to', () => {
    const source = new AtsBVacancyEventSource(
      { client: () => undefined as never },
      atsBLimitsOf({ ATS_B_MAX_EVENT_SUBSCRIPTIONS: '50', ATS_B_EVENT_RETENTION_DAYS: '30' }),
    );
    expect(source.limits).toEqual({ maxSubscriptions: 50, retentionMs: 30 * DAY_MS, maxEventsPerRead: 100 });
  });
});
