/**
 * The daily-quota planner's decisions as pure functions: no clock, no I/O. The Postgres store takes its
 * grant in one SQL statement that computes the same allowance (see postgres-daily-quota.ts); everything
 * else (how long to wait, what the admin API shows) is computed here from the row.
 */

/** 'push' (candidate, application, document writes) or 'sync' (vacancy listings). */
export type QuotaPriority = 'push' | 'sync';

export const DAY_MS = 86_400_000;

export interface QuotaPolicy {
  /** Share of the day's limit only pushes may spend, released as the day runs out (0..1). */
  pushReserveFraction: number;
  /** Share of the day's limit only syncs may spend, released as the day runs out (0..1). */
  syncShareFraction: number;
  /** Length of the ATS's quota window; the shares scale with the part of it still ahead. */
  windowMs: number;
}

export const DEFAULT_QUOTA_POLICY: QuotaPolicy = {
  pushReserveFraction: 0.2,
  syncShareFraction: 0.2,
  windowMs: DAY_MS,
};

/** The ATS's quota window as the planner knows it (one row per customer system). */
export interface QuotaWindow {
  /** The daily limit configured on the connector. */
  configuredLimit: number;
  /** X-RateLimit-Limit when the ATS sent it. */
  atsLimit: number | null;
  /** Calls counted against this window by everyone (the ATS's count when it told us, never less than ours). */
  used: number;
  /** Calls this service made in this window. */
  ourUsed: number;
  /** When the window ends (epoch ms). */
  resetAt: number;
  /** After a 429: no call before this (epoch ms). */
  pausedUntil: number | null;
  /** Calls pushes took from their own reserve this window (the common pool was empty). */
  pushReserveSpent: number;
  /** Calls syncs took from their own share this window. */
  syncShareSpent: number;
}

export function assertValidPolicy(policy: QuotaPolicy): void {
  const { pushReserveFraction: push, syncShareFraction: sync, windowMs } = policy;
  if (!(push >= 0 && sync >= 0 && push + sync < 1)) {
    throw new RangeError(`reserve fractions must be >= 0 and add up to < 1, got ${push} + ${sync}`);
  }
  if (!(Number.isFinite(windowMs) && windowMs > 0)) throw new RangeError(`windowMs must be > 0`);
}

/** The limit the plan spends to: the configured one, lowered to the ATS's own when that is smaller. */
export function effectiveLimit(window: Pick<QuotaWindow, 'configuredLimit' | 'atsLimit'>): number {
  return window.atsLimit === null
    ? window.configuredLimit
    : Math.min(window.configuredLimit, window.atsLimit);
}

/** Part of the window still ahead, 0..1. */
export function windowLeftFraction(resetAt: number, now: number, windowMs: number): number {
  return Math.min(1, Math.max(0, (resetAt - now) / windowMs));
}

/** A side's share of the limit for the rest of the window (before what it already took from it). */
export function shareFor(
  limit: number,
  fraction: number,
  resetAt: number,
  now: number,
  windowMs: number,
): number {
  return Math.ceil(limit * fraction * windowLeftFraction(resetAt, now, windowMs));
}

/**
 * What each side still holds for itself: its share of the rest of the window less what it took from it.
 * A side spends the common pool first and its own share only then, so one side's burst never eats the
 * other's share, and a side that drained its own share cannot claim it against the other. Same formula as
 * the SQL statement's.
 */
export function claims(
  window: QuotaWindow,
  policy: QuotaPolicy,
  now: number,
): { push: number; sync: number } {
  const limit = effectiveLimit(window);
  const at = (fraction: number) => shareFor(limit, fraction, window.resetAt, now, policy.windowMs);
  return {
    push: Math.max(0, at(policy.pushReserveFraction) - window.pushReserveSpent),
    sync: Math.max(0, at(policy.syncShareFraction) - window.syncShareSpent),
  };
}

const other = (priority: QuotaPriority): QuotaPriority => (priority === 'push' ? 'sync' : 'push');

/** How many more calls `priority` may make right now: all that is left but the other side's claim. */
export function allowanceFor(
  window: QuotaWindow,
  policy: QuotaPolicy,
  priority: QuotaPriority,
  now: number,
): number {
  return Math.max(0, effectiveLimit(window) - window.used - claims(window, policy, now)[other(priority)]);
}

export type QuotaDecision =
  { granted: true } | { granted: false; reason: 'paused' | 'exhausted'; retryAt: number };

/** Whether `cost` calls may go now and, if not, the earliest time they could. */
export function decide(
  window: QuotaWindow,
  policy: QuotaPolicy,
  priority: QuotaPriority,
  cost: number,
  now: number,
): QuotaDecision {
  if (window.pausedUntil !== null && window.pausedUntil > now) {
    return { granted: false, reason: 'paused', retryAt: window.pausedUntil };
  }
  if (allowanceFor(window, policy, priority, now) >= cost) return { granted: true };
  return { granted: false, reason: 'exhausted', retryAt: nextGrantAt(window, policy, priority, cost, now) };
}

/**
 * When `cost` calls of `priority` fit again without anyone else spending: the other side's share shrinks as
 * the window runs out, so the wait may end before the reset; otherwise at the reset, when the window is new.
 */
export function nextGrantAt(
  window: QuotaWindow,
  policy: QuotaPolicy,
  priority: QuotaPriority,
  cost: number,
  now: number,
): number {
  const limit = effectiveLimit(window);
  const side = other(priority);
  const fraction = side === 'push' ? policy.pushReserveFraction : policy.syncShareFraction;
  const spent = side === 'push' ? window.pushReserveSpent : window.syncShareSpent;
  const room = limit - window.used - cost; // the other side's claim may shrink down to this
  if (room < 0 || fraction === 0) return Math.max(now, window.resetAt);
  // ceil(limit·f·(reset − t)/W) − spent ≤ room  ⇔  t ≥ reset − (room + spent)·W/(limit·f), room + spent whole
  const at = window.resetAt - (Math.floor(room + spent) * policy.windowMs) / (limit * fraction);
  // One millisecond past the exact point, so float rounding of the share never lands on the wrong side.
  return Math.min(Math.max(now + 1, Math.ceil(at) + 1), Math.max(now, window.resetAt));
}

/**
 * The configured daily reset after `now`: the first `resetMinuteUtc` (minutes after UTC midnight, 0 by
 * default) strictly later than now. Used until the ATS names its reset in X-RateLimit-Reset or Retry-After.
 */
export function nextConfiguredReset(now: number, resetMinuteUtc = 0): number {
  const midnight = Math.floor(now / DAY_MS) * DAY_MS;
  const today = midnight + resetMinuteUtc * 60_000;
  return today > now ? today : today + DAY_MS;
}

/** Parses "HH:MM" (UTC) into minutes after midnight; throws on anything else. */
export function parseResetTime(value: string): number {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (!match) throw new RangeError(`daily reset must be HH:MM (UTC), got "${value}"`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** A window whose reset has passed starts over: nothing used, the next reset ahead. */
export function rolled(window: QuotaWindow, now: number, nextReset: number): QuotaWindow {
  if (window.resetAt > now) return window;
  return { ...window, used: 0, ourUsed: 0, pushReserveSpent: 0, syncShareSpent: 0, resetAt: nextReset };
}

/** What an operator sees of a window: spent, left, when it resets, where the current rate leads. */
export interface QuotaPlanView {
  limit: number;
  configuredLimit: number;
  atsLimit: number | null;
  /** Everyone's calls this window (the ATS's count from the headers, or ours when it said nothing yet). */
  usedByAll: number;
  usedByUs: number;
  remaining: number;
  resetAt: number;
  pausedUntil: number | null;
  /** Our calls per hour lately (a moving average over a few minutes). */
  currentRatePerHour: number;
  /** Calls the window would end with if the current rate held until the reset (capped by nothing). */
  projectedUse: number;
  /** What could be spent evenly until the reset: remaining ÷ time left. */
  sustainableRatePerHour: number;
  /** Calls held for pushes for the rest of the window (syncs may not take them). */
  pushReserve: number;
  /** Calls held for syncs for the rest of the window (pushes may not take them). */
  syncShare: number;
  /** No more calls before `resumesAt`: the limit is reached or the ATS answered 429. */
  exhausted: boolean;
  resumesAt: number | null;
}

export function planView(
  window: QuotaWindow,
  policy: QuotaPolicy,
  ratePerSecond: number,
  now: number,
  nextReset: number,
): QuotaPlanView {
  const current = rolled(window, now, nextReset);
  const limit = effectiveLimit(current);
  const remaining = Math.max(0, limit - current.used);
  const hoursLeft = Math.max(0, current.resetAt - now) / 3_600_000;
  const paused = current.pausedUntil !== null && current.pausedUntil > now;
  const pushesBlocked = allowanceFor(current, policy, 'push', now) < 1;
  const syncsBlocked = allowanceFor(current, policy, 'sync', now) < 1;
  const exhausted = paused || (pushesBlocked && syncsBlocked);
  const resumesAt = paused
    ? current.pausedUntil
    : exhausted
      ? Math.min(nextGrantAt(current, policy, 'push', 1, now), nextGrantAt(current, policy, 'sync', 1, now))
      : null;
  const ratePerHour = ratePerSecond * 3600;
  const held = claims(current, policy, now);
  return {
    limit,
    configuredLimit: current.configuredLimit,
    atsLimit: current.atsLimit,
    usedByAll: current.used,
    usedByUs: current.ourUsed,
    remaining,
    resetAt: current.resetAt,
    pausedUntil: paused ? current.pausedUntil : null,
    currentRatePerHour: round2(ratePerHour),
    projectedUse: Math.round(current.used + ratePerHour * hoursLeft),
    sustainableRatePerHour: hoursLeft > 0 ? round2(remaining / hoursLeft) : remaining,
    pushReserve: held.push,
    syncShare: held.sync,
    exhausted,
    resumesAt,
  };
}

/** Moving average of the call rate: decays with time constant `tauSeconds`, each call adds 1/tau. */
export function decayedRate(rate: number, elapsedMs: number, tauSeconds: number): number {
  return rate * Math.exp(-Math.max(0, elapsedMs) / 1000 / tauSeconds);
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
