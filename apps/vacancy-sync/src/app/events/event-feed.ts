/**
 * The event feed's decisions, pure: the subscription's name, how often it is read, and how long to wait
 * before making a lost subscription again (what a batch asks for: `eventActions`, @connector/ats-core).
 */

export const DEFAULT_EVENT_POLL_SECONDS = 60;
/** The vendor's own floor for sensible reading; tests lower it with EVENT_POLL_MIN_SECONDS. */
export const MIN_EVENT_POLL_SECONDS = 5;
/** Reads that fail one after another before the feed falls back to polling (and the subscription is made again). */
export const FAILURES_BEFORE_POLLING = 3;
/** The longest wait between two attempts to make the subscription again. */
export const MAX_RESUBSCRIBE_BACKOFF_SECONDS = 30 * 60;
/** While the feed is healthy, the changes-only runs (the safety net) come at least this far apart. */
export const HEALTHY_FEED_RUN_INTERVAL_MINUTES = 60;

export type FeedMode = 'events' | 'polling';

/** The warning code of a run of a connector whose event feed is not working (runs/warnings). */
export const EVENTS_UNAVAILABLE = 'EVENTS_UNAVAILABLE';

/**
 * The subscription's name at the ATS, derived from the connector alone, so any process finds it again after a
 * restart (the vendor has no call that lists subscriptions). Letters, digits and `-` only, at most 64.
 */
export function subscriptionIdOf(connectorId: string): string {
  const safe = connectorId.replace(/[^A-Za-z0-9-]/g, '').slice(0, 56);
  return `vs-${safe}`;
}

/** The connector's `eventPollSeconds`, read tolerantly: default 60, never below the floor. */
export function eventPollSecondsOf(
  options: Record<string, unknown>,
  minSeconds = MIN_EVENT_POLL_SECONDS,
): number {
  const raw = options['eventPollSeconds'];
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0)
    return Math.max(DEFAULT_EVENT_POLL_SECONDS, minSeconds);
  return Math.max(Math.round(n), minSeconds);
}

/** How long to wait before the `failures`-th attempt to make the subscription again: doubling, capped. */
export function resubscribeBackoffSeconds(failures: number, pollSeconds: number): number {
  const n = Math.max(0, failures - 1);
  return Math.min(pollSeconds * 2 ** Math.min(n, 20), MAX_RESUBSCRIBE_BACKOFF_SECONDS);
}

/** A failed read: the feed falls back to polling once reads keep failing, else tries again after a backoff. */
export function afterReadFailure(failures: number): 'retry' | 'polling' {
  return failures >= FAILURES_BEFORE_POLLING ? 'polling' : 'retry';
}

/**
 * Whether a feed on events went unread for longer than the ATS keeps events (`retentionMs`): what it did not
 * read may be gone, so it is handled as lost. Counted from its last read, or from when it was made.
 */
export function unreadTooLong(
  feed: { lastReadAt?: Date; since: Date },
  retentionMs: number,
  now: Date,
): boolean {
  const readUpTo = Math.max(feed.lastReadAt?.getTime() ?? 0, feed.since.getTime());
  return now.getTime() - readUpTo > retentionMs;
}

/** The run interval while the feed is healthy: the changes-only run is the safety net, so it may come less often. */
export function runIntervalMinutes(syncIntervalMinutes: number, mode: FeedMode | undefined): number {
  return mode === 'events'
    ? Math.max(syncIntervalMinutes, HEALTHY_FEED_RUN_INTERVAL_MINUTES)
    : syncIntervalMinutes;
}

/** The warning a run of a connector whose feed is down carries (plain words, for the admin). */
export function eventsUnavailableWarning(reason: string | undefined): { code: string; message: string } {
  return {
    code: EVENTS_UNAVAILABLE,
    message:
      `The ATS's change notifications are not working for this connector` +
      (reason ? ` (${reason.replace(/\.$/, '')})` : '') +
      `, so changes reach the platform only at its scheduled runs. The connector makes the subscription ` +
      `again by itself; nothing needs doing unless this stays.`,
  };
}
