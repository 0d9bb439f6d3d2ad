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

  it('puts users in data centres when ATS_B_SANDBOX_DATA_CENTRES names some', () => {
    const resolved = resolveOptions(
      optionsFromEnv({
        ATS_B_SANDBOX_DATA_CENTRES: 'us:4021, emea:4022,apac',
        ATS_B_SANDBOX_USERS: 'recruiter:recruiter-pass@us,emea-user:p@ss@emea,plain:secret',
      }),
    );
    expect(resolved.dataCentres).toEqual([
      { name: 'us', port: 4021 },
      { name: 'emea', port: 4022 },
      { name: 'apac', port: 0 },
    ]);
    expect(resolved.users).toEqual([
      { username: 'recruiter', password: 'recruiter-pass', dataCentre: 'us' },
      { username: 'emea-user', password: 'p@ss', dataCentre: 'emea' },
      { username: 'plain', password: 'secret' },
    ]);
  });

  it('keeps one data centre, and an @ in a password, when ATS_B_SANDBOX_DATA_CENTRES is unset', () => {
    const resolved = resolveOptions(optionsFromEnv({ ATS_B_SANDBOX_USERS: 'recruiter:pass@us' }));
    expect(resolved.dataCentres).toEqual([]);
    expect(resolved.users).toEqual([{ username: 'recruiter', password: 'pass@us' }]);
  });

  it('refuses a user in an unknown data centre and a bad port, naming the variable', () => {
    expect(() =>
      optionsFromEnv({ ATS_B_SANDBOX_DATA_CENTRES: 'us', ATS_B_SANDBOX_USERS: 'a:b@emea' }),
    ).toThrow(/ATS_B_SANDBOX_USERS: 'a' names data centre 'emea'/);
    expect(() => optionsFromEnv({ ATS_B_SANDBOX_DATA_CENTRES: 'us:x' })).toThrow(
      /ATS_B_SANDBOX_DATA_CENTRES must be a non-negative integer/,
    );
    expect(() => resolveOptions(optionsFromEnv({ ATS_B_SANDBOX_DATA_CENTRES: 'us,US' }))).toThrow(
      /data centre name 'US'/,
    );
    expect(() => resolveOptions(optionsFromEnv({ ATS_B_SANDBOX_DATA_CENTRES: 'us,us' }))).toThrow(
      /data centre 'us' is named twice/,
    );
  });
});
