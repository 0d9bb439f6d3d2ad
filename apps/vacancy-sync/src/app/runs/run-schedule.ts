import { createHash } from 'node:crypto';

/**
 * The scheduler's decisions, free of I/O: where in its interval a connector runs, when its next run is, and
 * which due connectors a process starts when it has free run slots.
 */

/**
 * A connector's stable place in any period, in [0, 1): the first 32 bits of sha256(connector id). Runs of a
 * fleet spread evenly over the interval instead of all at the top of the minute, and stay where they are
 * across restarts and processes.
 */
export function slotFraction(connectorId: string): number {
  return createHash('sha256').update(connectorId).digest().readUInt32BE(0) / 2 ** 32;
}

/** The shortest gap, in intervals, between a run off its slot (a first sync) and the run that joins the slot. */
const JOIN_MIN_GAP = 0.1;

/** How far from its slot a scheduled time may be and still count as on it (clocks, rounding). */
const SLOT_TOLERANCE_MS = 1_000;

/** The start of the connector's slot in the period containing `at` (at or before `at`). */
function slotAtOrBefore(atMs: number, periodMs: number, fraction: number): number {
  const offsetMs = Math.floor(fraction * periodMs);
  return Math.floor((atMs - offsetMs) / periodMs) * periodMs + offsetMs;
}

/**
 * When a scheduled run that was due at `scheduledAt` and starts at `now` is followed by the next one: the first
 * of the connector's slots (its offset in every interval) after `now`. A run that starts on time is followed one
 * interval after its scheduled time, whatever its own lateness; slots missed while the scheduler lagged are
 * skipped, not queued (the lag shows in `connector_sync_lag_seconds`). A run that was not on a slot (a new
 * connector's first sync, an interval just changed) is followed by the first slot at least a tenth of an
 * interval after `now`: it joins its slot with no gap longer than the interval and a tenth, and no two runs
 * back to back.
 */
export function nextSlot(input: {
  connectorId: string;
  intervalSeconds: number;
  scheduledAt: Date;
  now: Date;
}): Date {
  const periodMs = Math.max(1, Math.round(input.intervalSeconds)) * 1000;
  const fraction = slotFraction(input.connectorId);
  const now = input.now.getTime();
  const scheduled = input.scheduledAt.getTime();
  const nearest = slotAtOrBefore(scheduled + periodMs / 2, periodMs, fraction);
  if (Math.abs(scheduled - nearest) > SLOT_TOLERANCE_MS) {
    return new Date(slotAtOrBefore(now + periodMs * JOIN_MIN_GAP, periodMs, fraction) + periodMs);
  }
  const following = nearest + periodMs;
  return new Date(following > now ? following : slotAtOrBefore(now, periodMs, fraction) + periodMs);
}

/**
 * The connector's first slot after `now` in a period of `periodSeconds`: where a changed run interval or event
 * poll period takes effect. At most one new period away, and a fleet whose option changed at once spreads over
 * the period instead of coming due together.
 */
export function firstSlotAfter(input: { connectorId: string; periodSeconds: number; now: Date }): Date {
  const periodMs = Math.max(1, Math.round(input.periodSeconds)) * 1000;
  const fraction = slotFraction(input.connectorId);
  return new Date(slotAtOrBefore(input.now.getTime(), periodMs, fraction) + periodMs);
}

/**
 * Whether a run now is the connector's periodic full listing: once in every `everyHours` period, at the
 * connector's own place in it (full listings of a fleet spread over the day, not all at the hour their
 * connectors were created), and never sooner than half a period after the last one.
 */
export function fullListingDue(input: {
  connectorId: string;
  lastFullStartedAt: Date;
  everyHours: number;
  now: Date;
}): boolean {
  const periodMs = input.everyHours * 3_600_000;
  const fraction = slotFraction(input.connectorId);
  const now = input.now.getTime();
  const last = input.lastFullStartedAt.getTime();
  if (now - last < periodMs / 2) return false;
  return slotAtOrBefore(now, periodMs, fraction) > slotAtOrBefore(last, periodMs, fraction);
}

/** A due connector as the claim query offers it. */
export interface DueConnector {
  connectorId: string;
  accountId: string;
  /** The customer system its calls go to (learnt at its first run); unknown before. */
  systemKey: string | null;
  /** Never synced successfully: its first sync goes ahead of scheduled ones. */
  firstSync: boolean;
  nextRunAt: Date;
}

/**
 * Which due connectors to start with `free` run slots: first syncs first, then the longest overdue; never more
 * than `perSystem` runs at once on one customer system, nor `perAccount` of one account, counting those already
 * running anywhere (`busy`, `busyAccounts`). One passed over stays due: it takes no slot while it waits.
 */
export function pickDue(
  candidates: DueConnector[],
  limits: {
    free: number;
    perSystem: number;
    busy: ReadonlyMap<string, number>;
    perAccount: number;
    busyAccounts: ReadonlyMap<string, number>;
  },
): DueConnector[] {
  const taken = new Map(limits.busy);
  const accounts = new Map(limits.busyAccounts);
  const picked: DueConnector[] = [];
  const ordered = [...candidates].sort(
    (a, b) => Number(b.firstSync) - Number(a.firstSync) || a.nextRunAt.getTime() - b.nextRunAt.getTime(),
  );
  for (const candidate of ordered) {
    if (picked.length >= limits.free) break;
    const ofAccount = accounts.get(candidate.accountId) ?? 0;
    if (ofAccount >= limits.perAccount) continue;
    const key = candidate.systemKey;
    if (key !== null) {
      const running = taken.get(key) ?? 0;
      if (running >= limits.perSystem) continue;
      taken.set(key, running + 1);
    }
    accounts.set(candidate.accountId, ofAccount + 1);
    picked.push(candidate);
  }
  return picked;
}
