import {
  claims,
  effectiveLimit,
  rolled,
  type QuotaPolicy,
  type QuotaPriority,
  type QuotaWindow,
} from '../lib/daily-quota/quota-plan';

/*
 * What the daily-quota statements (daily-quota.sql.ts) do to a window, written as pure functions for the
 * planner's spec to reason with; production runs the SQL.
 */

/** The part of a grant taken from the side's own share: what the common pool cannot cover. */
function takenFromOwnShare(window: QuotaWindow, policy: QuotaPolicy, cost: number, now: number): number {
  const held = claims(window, policy, now);
  const common = effectiveLimit(window) - window.used - held.push - held.sync;
  return Math.max(0, cost - Math.max(0, common));
}

/** The window after a grant of `cost` calls to `priority`. */
export function afterGrant(
  window: QuotaWindow,
  policy: QuotaPolicy,
  priority: QuotaPriority,
  cost: number,
  now: number,
): QuotaWindow {
  const own = takenFromOwnShare(window, policy, cost, now);
  return {
    ...window,
    used: window.used + cost,
    ourUsed: window.ourUsed + cost,
    pushReserveSpent: window.pushReserveSpent + (priority === 'push' ? own : 0),
    syncShareSpent: window.syncShareSpent + (priority === 'sync' ? own : 0),
  };
}

/**
 * The window after an answer's X-RateLimit-* headers, which are authoritative: the customer's other
 * integrations spend the same quota, so `used` rises to the ATS's count (it never falls within a window:
 * our calls still in flight are not in the ATS's count yet). An answer naming a reset that is already past
 * crossed the reset on its way and changes nothing.
 */
export function observed(
  window: QuotaWindow,
  headers: { limit: number | null; remaining: number | null; resetAt: number | null },
  now: number,
  nextReset: number,
): QuotaWindow {
  if (headers.resetAt !== null && headers.resetAt <= now) return rolled(window, now, nextReset);
  const current = rolled(window, now, nextReset);
  const atsLimit = headers.limit ?? current.atsLimit;
  const atsUsed =
    atsLimit !== null && headers.remaining !== null ? Math.max(0, atsLimit - headers.remaining) : 0;
  return {
    ...current,
    atsLimit,
    used: Math.max(current.used, atsUsed),
    resetAt: headers.resetAt ?? current.resetAt,
  };
}
