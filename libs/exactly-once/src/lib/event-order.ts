/** Where a record's last applied event stands, as the link tables keep it. */
export interface AppliedMark {
  lastOccurredAt: Date | null;
  lastEventId: string | null;
  contentHash: string | null;
}

/**
 * What to do with an event for a record, given the last event applied to it:
 * - `apply`: newer (or nothing applied yet);
 * - `replayed`: this very event was applied (a redelivery; say so again, change nothing);
 * - `duplicate`: another event with the same time and content was applied (change nothing);
 * - `stale`: older than what the ATS has; applying it would overwrite newer data;
 * - `reused`: an event with this id but other content was applied: a producer bug, never applied.
 */
export type EventOrder = 'apply' | 'replayed' | 'duplicate' | 'stale' | 'reused';

export function orderOf(
  event: { id: string; occurredAt: string },
  contentHash: string,
  mark: AppliedMark | undefined,
): EventOrder {
  if (!mark?.lastOccurredAt) return 'apply';
  if (mark.lastEventId === event.id) {
    return mark.contentHash && mark.contentHash !== contentHash ? 'reused' : 'replayed';
  }
  const occurredAt = Date.parse(event.occurredAt);
  const last = mark.lastOccurredAt.getTime();
  if (occurredAt < last) return 'stale';
  if (occurredAt === last && mark.contentHash === contentHash) return 'duplicate';
  return 'apply';
}
