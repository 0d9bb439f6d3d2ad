import { afterGrant, observed } from '../../test/quota-plan.model';
import {
  allowanceFor,
  claims,
  DAY_MS,
  decide,
  DEFAULT_QUOTA_POLICY,
  effectiveLimit,
  nextConfiguredReset,
  nextGrantAt,
  parseResetTime,
  planView,
  type QuotaPolicy,
  type QuotaWindow,
  rolled,
} from './quota-plan';

const MIDNIGHT = Date.UTC(2026, 10, 21);
const HOUR = 3_600_000;
const policy: QuotaPolicy = DEFAULT_QUOTA_POLICY; // 20% push reserve, 20% sync share, one day

const window = (overrides: Partial<QuotaWindow> = {}): QuotaWindow => ({
  configuredLimit: 2_000,
  atsLimit: null,
  used: 0,
  ourUsed: 0,
  pushReserveSpent: 0,
  syncShareSpent: 0,
  resetAt: MIDNIGHT + DAY_MS,
  pausedUntil: null,
  ...overrides,
});

describe('quota plan', () => {
  describe('spend rate', () => {
    it('lets pushes spend in a burst all but the sync share for the rest of the day', () => {
      const at6pm = MIDNIGHT + 18 * HOUR; // a quarter of the day left: sync share 2 000 × 0.2 × 0.25 = 100
      expect(allowanceFor(window(), policy, 'push', at6pm)).toBe(1_900);
      expect(decide(window({ used: 1_899 }), policy, 'push', 1, at6pm)).toEqual({ granted: true });
      expect(decide(window({ used: 1_900 }), policy, 'push', 1, at6pm).granted).toBe(false);
    });

    it('never grants past the limit, whoever spent it', () => {
      const late = MIDNIGHT + DAY_MS - 1_000; // shares are ~0 a second before the reset
      expect(allowanceFor(window({ used: 1_999 }), policy, 'push', late)).toBe(0);
      expect(allowanceFor(window({ used: 1_998 }), policy, 'push', late)).toBe(1);
      expect(allowanceFor(window({ used: 2_500 }), policy, 'sync', late)).toBe(0);
    });

    it('spends to the lower of the configured limit and the limit the ATS reports', () => {
      expect(effectiveLimit({ configuredLimit: 10_000, atsLimit: 2_000 })).toBe(2_000);
      expect(effectiveLimit({ configuredLimit: 300, atsLimit: 2_000 })).toBe(300);
      expect(effectiveLimit({ configuredLimit: 300, atsLimit: null })).toBe(300);
    });

    it('shows where the current rate leads and what could be spent evenly until the reset', () => {
      const noon = MIDNIGHT + 12 * HOUR;
      const view = planView(window({ used: 800, ourUsed: 500 }), policy, 100 / 3600, noon, MIDNIGHT + DAY_MS);
      expect(view).toMatchObject({
        limit: 2_000,
        usedByAll: 800,
        usedByUs: 500,
        remaining: 1_200,
        currentRatePerHour: 100,
        projectedUse: 800 + 100 * 12,
        sustainableRatePerHour: 100,
        exhausted: false,
        resumesAt: null,
      });
    });
  });

  describe('reserve and shares', () => {
    it('keeps the push reserve from syncs and the sync share from pushes, scaled to the day left', () => {
      const start = MIDNIGHT; // the whole day ahead: 400 each
      expect(allowanceFor(window({ used: 1_000 }), policy, 'sync', start)).toBe(600);
      expect(allowanceFor(window({ used: 1_000 }), policy, 'push', start)).toBe(600);
      const asymmetric = { ...policy, pushReserveFraction: 0.3, syncShareFraction: 0.1 };
      expect(allowanceFor(window({ used: 1_000 }), asymmetric, 'sync', start)).toBe(400);
      expect(allowanceFor(window({ used: 1_000 }), asymmetric, 'push', start)).toBe(800);
    });

    it('a push backlog leaves syncs their share for the rest of the day, and pushes their reserve to syncs', () => {
      const at9am = MIDNIGHT + 9 * HOUR; // 15/24 of the day left: 250 held for each side
      let w = window();
      while (allowanceFor(w, policy, 'push', at9am) > 0) w = afterGrant(w, policy, 'push', 1, at9am);
      expect(w.used).toBe(2_000 - 250);
      expect(w.pushReserveSpent).toBe(250); // the common pool first, then their own reserve
      expect(allowanceFor(w, policy, 'sync', at9am)).toBe(250);
      let s = window();
      while (allowanceFor(s, policy, 'sync', at9am) > 0) s = afterGrant(s, policy, 'sync', 1, at9am);
      expect(allowanceFor(s, policy, 'push', at9am)).toBe(250);
    });

    it('releases what a side holds as the day runs out', () => {
      const w = window({ used: 1_600 });
      expect(claims(w, policy, MIDNIGHT)).toEqual({ push: 400, sync: 400 });
      expect(claims(w, policy, MIDNIGHT + 18 * HOUR)).toEqual({ push: 100, sync: 100 });
      expect(claims({ ...w, syncShareSpent: 30 }, policy, MIDNIGHT + 18 * HOUR)).toEqual({
        push: 100,
        sync: 70,
      });
    });

    it('tells a refused push when the shrinking sync share lets one more call through', () => {
      const at9am = MIDNIGHT + 9 * HOUR;
      const w = window({ used: 1_750, pushReserveSpent: 250 });
      const retryAt = nextGrantAt(w, policy, 'push', 1, at9am);
      expect(retryAt).toBeGreaterThan(at9am);
      expect(retryAt).toBeLessThan(w.resetAt);
      expect(decide(w, policy, 'push', 1, retryAt - 1_000).granted).toBe(false);
      expect(decide(w, policy, 'push', 1, retryAt)).toEqual({ granted: true });
    });

    it('waits for the reset when the limit itself is reached', () => {
      const w = window({ used: 2_000 });
      expect(decide(w, policy, 'sync', 1, MIDNIGHT + HOUR)).toEqual({
        granted: false,
        reason: 'exhausted',
        retryAt: w.resetAt,
      });
      const view = planView(w, policy, 0, MIDNIGHT + HOUR, w.resetAt);
      expect(view).toMatchObject({ exhausted: true, resumesAt: w.resetAt, remaining: 0 });
    });

    it('refuses everything while a 429 pause lasts, whatever is left', () => {
      const pausedUntil = MIDNIGHT + 2 * HOUR;
      const decision = decide(window({ pausedUntil }), policy, 'push', 1, MIDNIGHT + HOUR);
      expect(decision).toEqual({ granted: false, reason: 'paused', retryAt: pausedUntil });
      expect(decide(window({ pausedUntil }), policy, 'push', 1, pausedUntil)).toEqual({ granted: true });
      expect(planView(window({ pausedUntil }), policy, 0, MIDNIGHT + HOUR, MIDNIGHT + DAY_MS)).toMatchObject({
        exhausted: true,
        resumesAt: pausedUntil,
      });
    });
  });

  describe('reset', () => {
    it('is the configured time of day (UTC midnight by default) strictly after now', () => {
      expect(nextConfiguredReset(MIDNIGHT + HOUR)).toBe(MIDNIGHT + DAY_MS);
      expect(nextConfiguredReset(MIDNIGHT)).toBe(MIDNIGHT + DAY_MS);
      expect(nextConfiguredReset(MIDNIGHT + HOUR, parseResetTime('06:30'))).toBe(MIDNIGHT + 6.5 * HOUR);
      expect(nextConfiguredReset(MIDNIGHT + 7 * HOUR, parseResetTime('06:30'))).toBe(
        MIDNIGHT + DAY_MS + 6.5 * HOUR,
      );
      expect(() => parseResetTime('24:00')).toThrow(RangeError);
    });

    it('starts a new window with nothing used once the reset has passed', () => {
      const w = window({ used: 2_000, ourUsed: 1_500 });
      expect(rolled(w, w.resetAt - 1, 0)).toBe(w);
      expect(rolled(w, w.resetAt, w.resetAt + DAY_MS)).toMatchObject({
        used: 0,
        ourUsed: 0,
        resetAt: w.resetAt + DAY_MS,
      });
    });

    it("takes the ATS's count and reset from the headers; never lowers what is used within a window", () => {
      const now = MIDNIGHT + HOUR;
      const next = MIDNIGHT + DAY_MS;
      const other = observed(
        window({ used: 100 }),
        { limit: 2_000, remaining: 1_500, resetAt: now + 60_000 },
        now,
        next,
      );
      expect(other).toMatchObject({ used: 500, atsLimit: 2_000, resetAt: now + 60_000 });
      // Our calls still in flight are not in the ATS's count yet: a lower count changes nothing.
      expect(
        observed(window({ used: 700 }), { limit: 2_000, remaining: 1_500, resetAt: null }, now, next).used,
      ).toBe(700);
      // An answer naming a reset already past crossed it on the way.
      expect(
        observed(window({ used: 700 }), { limit: 2_000, remaining: 0, resetAt: now - 1 }, now, next).used,
      ).toBe(700);
    });
  });
});
