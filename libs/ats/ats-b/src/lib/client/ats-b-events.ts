import { isRecord, readDate, readInt, readText } from '@connector/ats-http';

/** The vendor's cap on events per read (REST-API-Event-Subscriptions guide). */
export const ATS_B_MAX_EVENTS_PER_READ = 100;

/** The vendor's entity event types (sdk-rest `EntityEventType`). */
export type AtsBEntityEventType = 'INSERTED' | 'UPDATED' | 'DELETED';

/** One event as this integration uses it: which JobOrder, what happened, and when (ids and names, no values). */
export interface AtsBEntityEvent {
  entityId: number;
  type: AtsBEntityEventType;
  /** The ATS's `eventTimestamp`. */
  timestamp: Date;
  updatedProperties?: string[];
}

/** A read of a subscription: `requestId` reads the batch again; no events is an empty answer (`{}`). */
export interface AtsBEventBatch {
  requestId?: number;
  events: AtsBEntityEvent[];
}

/**
 * The ATS does not know the subscription (never made, deleted, dropped after a week unread): it has to be
 * made again (PUT), and what changed meanwhile is not in it.
 */
export class AtsBSubscriptionGoneError extends Error {
  override readonly name = 'AtsBSubscriptionGoneError';
  constructor(readonly subscriptionId: string) {
    super(`ATS-B: event subscription '${subscriptionId}' is not known to the ATS (expired or removed)`);
  }
}

/** The vendor's subscription names: letters, digits, `_` and `-` (choice: the docs show names like these). */
export const ATS_B_SUBSCRIPTION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A `GET event/subscription/{id}` answer read tolerantly: `{}` is no events; ids as numbers or numeric text;
 * an event without a readable JobOrder id or type is left out (it cannot be acted on).
 */
export function readEventBatch(body: unknown): AtsBEventBatch {
  if (!isRecord(body)) return { events: [] };
  const requestId = readInt(body['requestId']);
  const rows = Array.isArray(body['events']) ? body['events'] : [];
  const events: AtsBEntityEvent[] = [];
  for (const row of rows) {
    if (!isRecord(row)) continue;
    const entityName = readText(row['entityName']);
    if (entityName !== undefined && entityName !== 'JobOrder') continue;
    const entityId = readInt(row['entityId']);
    const type = readText(row['entityEventType'])?.toUpperCase();
    if (entityId === undefined || (type !== 'INSERTED' && type !== 'UPDATED' && type !== 'DELETED')) continue;
    const properties = Array.isArray(row['updatedProperties'])
      ? row['updatedProperties'].filter((p): p is string => typeof p === 'string')
      : undefined;
    events.push({
      entityId,
      type,
      timestamp: readDate(row['eventTimestamp']) ?? new Date(),
      ...(properties ? { updatedProperties: properties } : {}),
    });
  }
  return { ...(requestId !== undefined ? { requestId } : {}), events };
}
