import { resolveOptions } from './index';
import { optionsFromEnv } from './sandbox-env';

const DAY_MS = 86_400_000;

describe(optionsFromEnv.name, () => {
  it("plays the vendor's least convenient documented limits when nothing is set", () => {
    const resolved = resolveOptions(optionsFromEnv({}));
    expect(resolved.perMinuteLimit).toBe(1_500);
    // The event guide's 15 subscriptions and 7 days (the usage-limits page says 50 and 30).
    expect(resolved.eventSubscriptions).toEqual({ max: 15, ttlMs: 7 * DAY_MS });
  });

  it("plays the other vendor page's limits when told to", () => {
    const resolved = resolveOptions(
      optionsFromEnv({
        ATS_B_SANDBOX_MAX_EVENT_SUBSCRIPTIONS: '50',
        ATS_B_SANDBOX_EVENT_RETENTION_DAYS: '30',
        ATS_B_SANDBOX_PER_MINUTE_LIMIT: '600',
      }),
    );
    expect(resolved.eventSubscriptions).toEqual({ max: 50, ttlMs: 30 * DAY_MS });
    expect(resolved.perMinuteLimit).toBe(600);
  });

  it('refuses a limit that is not a positive whole number, naming the variable', () => {
    expect(() => optionsFromEnv({ ATS_B_SANDBOX_MAX_EVENT_SUBSCRIPTIONS: '0' })).toThrow(
      /ATS_B_SANDBOX_MAX_EVENT_SUBSCRIPTIONS must be a positive integer/,
    );
    expect(() => optionsFromEnv({ ATS_B_SANDBOX_EVENT_RETENTION_DAYS: 'a week' })).toThrow(
      /ATS_B_SANDBOX_EVENT_RETENTION_DAYS must be a non-negative integer/,
    );
  });
});
