import type { ConnectorSnapshot } from '@connector/contracts';
import type { ClientOptions } from './client-and-budget';
import type { AtsPart } from './ats-part';
import type { SourcePage } from './vacancy-source';

/** One change the ATS reported: which record, what happened, and the ATS's time of it. */
export interface VacancyEvent {
  entityId: number;
  type: 'INSERTED' | 'UPDATED' | 'DELETED';
  timestamp: Date;
}

/** A read of the connector's subscription; `requestId` reads the same batch again. */
export interface VacancyEventBatch {
  requestId?: number;
  events: VacancyEvent[];
}

/** The ATS does not know the subscription any more (expired, removed): it has to be made again. */
export class SubscriptionGoneError extends Error {
  constructor(subscriptionId: string) {
    super(`the ATS no longer has the event subscription ${subscriptionId} (expired or removed)`);
    this.name = 'SubscriptionGoneError';
  }
}

/** The ATS's limits on event subscriptions, as the adapter's settings say (vendors' pages may disagree). */
export interface EventSubscriptionLimits {
  /** Subscriptions one customer may hold. */
  maxSubscriptions: number;
  /** How long the ATS keeps events nobody read: a feed unread for longer may have lost some. */
  retentionMs: number;
  /** Events one read answers at most. */
  maxEventsPerRead: number;
}

/**
 * How vacancy-sync hears of an ATS's vacancy changes between runs (capability `vacancy-events`): a subscription
 * per connector, read in batches, and the changed records read again by id as a listing page (the same
 * liveness and mapping as runs). All calls go through the connector's budget (`client`).
 */
export interface VacancyEventSource extends AtsPart {
  readonly limits: EventSubscriptionLimits;
  subscribe(connector: ConnectorSnapshot, subscriptionId: string, client: ClientOptions): Promise<void>;
  /** `requestId`: the batch again (after a crash); else up to `maxEvents`, which the ATS then forgets. */
  read(
    connector: ConnectorSnapshot,
    subscriptionId: string,
    read: { requestId?: number; maxEvents: number },
    client: ClientOptions,
  ): Promise<VacancyEventBatch>;
  unsubscribe(connector: ConnectorSnapshot, subscriptionId: string, client: ClientOptions): Promise<void>;
  /** The records the events name, as a page: live ones to publish, the others (deleted, gone) closed. */
  changed(
    connector: ConnectorSnapshot,
    events: readonly VacancyEvent[],
    options: { now: Date },
    client: ClientOptions,
  ): Promise<Omit<SourcePage, 'after'>>;
}

/** What a batch of events asks for: job orders to read again by id, and those the ATS deleted for good. */
export interface EventActions {
  reread: number[];
  deleted: number[];
}

/**
 * One action per job order, whatever the batch's order or how many events it has for one: a hard delete closes
 * (the record is gone); any other change is read again by id (the events carry no values).
 */
export function eventActions(events: ReadonlyArray<{ entityId: number; type: string }>): EventActions {
  const deleted = new Set<number>();
  const changed = new Set<number>();
  for (const event of events) {
    if (event.type === 'DELETED') deleted.add(event.entityId);
    else changed.add(event.entityId);
  }
  return {
    reread: [...changed].filter((id) => !deleted.has(id)).sort((a, b) => a - b),
    deleted: [...deleted].sort((a, b) => a - b),
  };
}
