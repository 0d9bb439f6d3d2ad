import type { ClientOptions } from '@connector/ats-access';
import { type AtsPart, AtsParts } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import type { ConnectorSnapshot } from '@connector/contracts';
import type { SourcePage } from '../sources/vacancy-source';

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

/**
 * How vacancy-sync hears of an ATS's vacancy changes between runs (capability `vacancy-events`): a subscription
 * per connector, read in batches, and the changed records read again by id as a listing page (the same
 * liveness and mapping as runs). All calls go through the connector's budget (`client`).
 */
export interface VacancyEventSource extends AtsPart {
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

/** The event source of an ATS type; an ATS without `vacancy-events` has none (its feed is `off`). */
export class VacancyEventSources {
  private readonly parts: AtsParts<VacancyEventSource>;

  constructor(...sources: VacancyEventSource[]) {
    this.parts = new AtsParts('vacancy event source', atsRegistry, sources, 'vacancy-events');
  }

  find(type: string): VacancyEventSource | undefined {
    return atsRegistry.has(type) ? this.parts.find(type) : undefined;
  }

  missing(): string[] {
    return this.parts.missing();
  }
}
