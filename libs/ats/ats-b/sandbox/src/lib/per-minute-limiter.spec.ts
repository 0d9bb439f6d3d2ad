import { PerMinuteLimiter } from './per-minute-limiter';

describe(PerMinuteLimiter.name, () => {
  it('refuses past the limit within a sliding minute, per customer', () => {
    let now = 0;
    const limiter = new PerMinuteLimiter(3, () => now);
    expect([1, 2, 3, 4].map(() => limiter.take('a'))).toEqual([true, true, true, false]);
    expect(limiter.take('b')).toBe(true);
    now = 59_000;
    expect(limiter.take('a')).toBe(false);
    now = 60_000;
    expect(limiter.take('a')).toBe(true);
  });
});
