import { randomUUID } from 'node:crypto';
import { AtsBError } from './ats-b.error';
import { mulberry32 } from './prng';

/** The vendor's entity event types (sdk-rest `EntityEventType`). */
export const ENTITY_EVENT_TYPES = ['INSERTED', 'UPDATED', 'DELETED'] as const;
export type EntityEventType = (typeof ENTITY_EVENT_TYPES)[number];

/** Entities whose changes the sandbox turns into events; other names are refused at subscribe. */
export const SUBSCRIBABLE_ENTITIES = ['JobOrder'] as const;

/** One event as the vendor sends it (sdk-rest `StandardEvent`; rest-api-docs `_subscription.md`). */
export interface EntityEvent {
  eventId: string;
  eventType: 'ENTITY';
  entityName: string;
  entityId: number;
  entityEventType: EntityEventType;
  eventTimestamp: number;
  eventMetadata: Record<string, string>;
  /** Only on UPDATED events (absent on INSERTED and DELETED, as in the sdk-rest test data). */
  updatedProperties?: string[];
}

/** A change as a store reports it; the subscription store turns it into one event per matching subscription. */
export interface EntityChange {
  entityName: string;
  entityId: number;
  entityEventType: EntityEventType;
  updatedProperties?: string[];
}

/** `PUT event/subscription/{id}` answer (sdk-rest `StandardSubscribeToEventsResponse`). */
export interface SubscribeResponse {
  lastRequestId: number;
  subscriptionId: string;
  createdOn: number;
  jmsSelector: string;
}

/** `GET event/subscription/{id}` answer: `{}` when there is nothing to read (no requestId, no events). */
export interface EventsResponse {
  requestId?: number;
  events?: EntityEvent[];
}

export interface EventSubscriptionOptions {
  /**
   * Subscriptions per customer database: the vendor's event-subscriptions guide says 15, its usage-limits page
   * 50; the sandbox plays the less convenient unless told otherwise.
   */
  max: number;
  /**
   * Unread events are purged, and a subscription not read is dropped, after this long: 7 days in the event
   * guide, 30 on another vendor page; the sandbox plays the shorter unless told otherwise.
   */
  ttlMs: number;
  /** Events at most per read (vendor: 100); a larger maxEvents is cut to it. */
  maxEventsPerRead: number;
  /** Events held per subscription before the oldest are dropped (bounds memory; the vendor names no number). */
  maxQueued: number;
  /** Seed of the shuffle that mixes the order of events of different entities within a batch. */
  seed: number;
}

export const DEFAULT_EVENT_SUBSCRIPTION_OPTIONS: EventSubscriptionOptions = {
  max: 15,
  ttlMs: 7 * 24 * 60 * 60 * 1000,
  maxEventsPerRead: 100,
  maxQueued: 100_000,
  seed: 1,
};

interface Subscription {
  id: string;
  names: Set<string>;
  eventTypes: Set<EntityEventType>;
  createdOn: number;
  lastReadAt: number;
  lastRequestId: number;
  queue: { at: number; event: EntityEvent }[];
  lastBatch: { requestId: number; events: EntityEvent[] } | null;
  jmsSelector: string;
}

export interface SubscriptionView {
  subscriptionId: string;
  names: string[];
  eventTypes: EntityEventType[];
  createdOn: number;
  lastReadAt: number;
  lastRequestId: number;
  queued: number;
}

/**
 * One customer's event subscriptions: a queue per subscription, fed by every job-order change while it exists.
 * Reading removes what it returns; the last batch can be read again by its requestId.
 */
export class EventSubscriptionStore {
  private subs = new Map<string, Subscription>();
  private nextEventId = 40_000_000;
  private rand: () => number;
  readonly options: EventSubscriptionOptions;

  constructor(
    options: Partial<EventSubscriptionOptions> = {},
    private readonly corpId = 1,
    private readonly now: () => number = Date.now,
  ) {
    this.options = { ...DEFAULT_EVENT_SUBSCRIPTION_OPTIONS, ...options };
    this.rand = mulberry32(this.options.seed);
  }

  /** Shortens (or lengthens) the expiry, e.g. for tests over `/__sandbox`. */
  configure(options: Partial<Pick<EventSubscriptionOptions, 'max' | 'ttlMs'>>): EventSubscriptionOptions {
    if (options.max !== undefined) {
      if (!Number.isInteger(options.max) || options.max < 0)
        throw AtsBError.badRequest('max must be a non-negative integer');
      this.options.max = options.max;
    }
    if (options.ttlMs !== undefined) {
      if (!Number.isInteger(options.ttlMs) || options.ttlMs < 1)
        throw AtsBError.badRequest('ttlMs must be a positive integer');
      this.options.ttlMs = options.ttlMs;
    }
    return { ...this.options };
  }

  /** Create, or re-create with a new filter (the queue and lastRequestId are kept). */
  subscribe(id: string, params: { type?: string; names?: string; eventTypes?: string }): SubscribeResponse {
    this.expire();
    if (params.type !== 'entity')
      throw AtsBError.badRequest(
        `Unsupported subscription type '${params.type ?? ''}' (the sandbox simulates 'entity' only)`,
        'errors.invalidSubscriptionType',
      );
    const names = splitList(params.names, 'names');
    for (const n of names)
      if (!(SUBSCRIBABLE_ENTITIES as readonly string[]).includes(n))
        throw AtsBError.badRequest(
          `Unsupported entity '${n}' for event subscriptions (the sandbox emits events for ${SUBSCRIBABLE_ENTITIES.join(', ')})`,
          'errors.invalidEntityName',
        );
    const eventTypes = splitList(params.eventTypes, 'eventTypes');
    for (const t of eventTypes)
      if (!(ENTITY_EVENT_TYPES as readonly string[]).includes(t))
        throw AtsBError.badRequest(
          `Invalid event type '${t}' (use ${ENTITY_EVENT_TYPES.join(', ')})`,
          'errors.invalidEventType',
        );
    const existing = this.subs.get(id);
    if (!existing && this.subs.size >= this.options.max)
      throw AtsBError.badRequest(
        `At most ${this.options.max} event subscriptions per customer database`,
        'errors.subscriptionLimitExceeded',
      );
    const now = this.now();
    const sub: Subscription = existing ?? {
      id,
      names: new Set(),
      eventTypes: new Set(),
      createdOn: now,
      lastReadAt: now,
      lastRequestId: 0,
      queue: [],
      lastBatch: null,
      jmsSelector: '',
    };
    sub.names = new Set(names);
    sub.eventTypes = new Set(eventTypes as EntityEventType[]);
    sub.lastReadAt = now;
    sub.jmsSelector =
      `JMSType='ENTITY' AND BhCorpId=${this.corpId} AND BhEntityName IN (${names.map((n) => `'${n}'`).join(',')})` +
      ` AND BhEntityEventType IN (${eventTypes.map((t) => `'${t}'`).join(',')})`;
    this.subs.set(id, sub);
    return {
      lastRequestId: sub.lastRequestId,
      subscriptionId: id,
      createdOn: sub.createdOn,
      jmsSelector: sub.jmsSelector,
    };
  }

  /** `true` if it existed. */
  unsubscribe(id: string): boolean {
    this.expire();
    return this.subs.delete(id);
  }

  /** Takes up to maxEvents (cut to 100) of the oldest events, removing them; nothing to read → `{}`. */
  read(id: string, maxEvents: number): EventsResponse {
    const sub = this.live(id);
    sub.lastReadAt = this.now();
    const n = Math.min(maxEvents, this.options.maxEventsPerRead);
    if (sub.queue.length === 0) return {};
    const taken = sub.queue.splice(0, n).map((q) => q.event);
    const events = this.mixEntities(taken);
    sub.lastRequestId++;
    sub.lastBatch = { requestId: sub.lastRequestId, events };
    return { requestId: sub.lastRequestId, events };
  }

  /** The last batch again; any other requestId has nothing to give (`{}`). */
  reread(id: string, requestId: number): EventsResponse {
    const sub = this.live(id);
    sub.lastReadAt = this.now();
    if (!sub.lastBatch || sub.lastBatch.requestId !== requestId) return {};
    return { requestId: sub.lastBatch.requestId, events: sub.lastBatch.events };
  }

  lastRequestId(id: string): number {
    return this.live(id).lastRequestId;
  }

  /** Queues the change for every subscription that asked for this entity and event type. */
  record(change: EntityChange): void {
    this.expire();
    const now = this.now();
    for (const sub of this.subs.values()) {
      if (!sub.names.has(change.entityName) || !sub.eventTypes.has(change.entityEventType)) continue;
      const event: EntityEvent = {
        eventId: `ID:JBM-${this.nextEventId++}`,
        eventType: 'ENTITY',
        eventTimestamp: now,
        eventMetadata: { PERSON_ID: '1', TRANSACTION_ID: randomUUID() },
        entityName: change.entityName,
        entityId: change.entityId,
        entityEventType: change.entityEventType,
        ...(change.entityEventType === 'UPDATED'
          ? { updatedProperties: [...(change.updatedProperties ?? [])] }
          : {}),
      };
      sub.queue.push({ at: now, event });
      if (sub.queue.length > this.options.maxQueued)
        sub.queue.splice(0, sub.queue.length - this.options.maxQueued);
    }
  }

  /** The admin surface's "drop a subscription" (as the vendor would after a week unread). */
  drop(id: string): boolean {
    return this.subs.delete(id);
  }

  list(): SubscriptionView[] {
    this.expire();
    return [...this.subs.values()].map((s) => ({
      subscriptionId: s.id,
      names: [...s.names],
      eventTypes: [...s.eventTypes],
      createdOn: s.createdOn,
      lastReadAt: s.lastReadAt,
      lastRequestId: s.lastRequestId,
      queued: s.queue.length,
    }));
  }

  clear(): void {
    this.subs.clear();
  }

  get size(): number {
    return this.subs.size;
  }

  /** Purges events older than the TTL and drops subscriptions not read (nor re-created) within it. */
  expire(): void {
    const cutoff = this.now() - this.options.ttlMs;
    for (const [id, sub] of this.subs) {
      if (sub.lastReadAt <= cutoff) {
        this.subs.delete(id);
        continue;
      }
      const firstLive = sub.queue.findIndex((q) => q.at > cutoff);
      if (firstLive === -1) sub.queue.length = 0;
      else if (firstLive > 0) sub.queue.splice(0, firstLive);
    }
  }

  private live(id: string): Subscription {
    this.expire();
    const sub = this.subs.get(id);
    if (!sub) throw subscriptionNotFound(id);
    return sub;
  }

  /**
   * The vendor promises no order across entities: the batch is shuffled, but one entity's events keep their order
   * (a seeded shuffle of the slots, then each entity's events laid back into its slots in order).
   */
  private mixEntities(events: EntityEvent[]): EntityEvent[] {
    const slots = events.map((e) => e.entityId);
    for (let i = slots.length - 1; i > 0; i--) {
      const j = Math.floor(this.rand() * (i + 1));
      [slots[i], slots[j]] = [slots[j] as number, slots[i] as number];
    }
    const byEntity = new Map<number, EntityEvent[]>();
    for (const e of events) byEntity.set(e.entityId, [...(byEntity.get(e.entityId) ?? []), e]);
    return slots.map((entityId) => (byEntity.get(entityId) as EntityEvent[]).shift() as EntityEvent);
  }
}

/** choice: the vendor documents no error for an unknown (or expired) subscription; 404 in its error body. */
export function subscriptionNotFound(id: string): AtsBError {
  return new AtsBError(404, 'errors.subscriptionNotFound', `Subscription '${id}' not found`);
}

function splitList(raw: string | undefined, name: string): string[] {
  const items = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw AtsBError.badRequest(`'${name}' is required with type 'entity'`);
  return [...new Set(items)];
}
