import {
  type ClientOptions,
  eventActions,
  type EventSubscriptionLimits,
  type SourcePage,
  SubscriptionGoneError,
  type VacancyEvent,
  type VacancyEventBatch,
  type VacancyEventSource,
  type VacancyPartDeps,
} from '@connector/ats-core';
import { readId } from '@connector/ats-http';
import type { ConnectorSnapshot } from '@connector/contracts';
import { type AtsBLimits, atsBLimits } from '../ats-b.limits';
import type { AtsBClient } from '../client/ats-b.client';
import { ATS_B_MAX_EVENTS_PER_READ, AtsBSubscriptionGoneError } from '../client/ats-b-events';
import { ATS_B_JOB_FIELDS, atsBPage } from './ats-b-vacancy.source';

/**
 * ATS-B's JobOrder event subscription (ats-b.md, "Event subscriptions"): PUT to make it, GET to read (and
 * remove) up to 100 events or a batch again by requestId, DELETE to end it. Changed job orders are read again
 * with the listing's field list and judged as a changes-only listing judges them (`atsBPage`); a hard-deleted
 * one, or one the ATS does not return any more, is closed.
 */
export class AtsBVacancyEventSource implements VacancyEventSource {
  readonly atsType = 'ats-b';
  readonly limits: EventSubscriptionLimits;

  /** `limits`: this process's (read from its environment when the source is built, so at boot). */
  constructor(
    private readonly deps: VacancyPartDeps<AtsBClient>,
    limits: AtsBLimits = atsBLimits(),
  ) {
    this.limits = {
      maxSubscriptions: limits.maxEventSubscriptions,
      retentionMs: limits.eventRetentionMs,
      maxEventsPerRead: ATS_B_MAX_EVENTS_PER_READ,
    };
  }

  async subscribe(
    connector: ConnectorSnapshot,
    subscriptionId: string,
    client: ClientOptions,
  ): Promise<void> {
    await this.deps.client(connector, client).subscribeJobOrderEvents(subscriptionId);
  }

  async read(
    connector: ConnectorSnapshot,
    subscriptionId: string,
    read: { requestId?: number; maxEvents: number },
    client: ClientOptions,
  ): Promise<VacancyEventBatch> {
    try {
      return await this.deps.client(connector, client).readEvents(subscriptionId, {
        ...(read.requestId !== undefined
          ? { requestId: read.requestId }
          : { maxEvents: Math.min(read.maxEvents, ATS_B_MAX_EVENTS_PER_READ) }),
      });
    } catch (error) {
      if (error instanceof AtsBSubscriptionGoneError) throw new SubscriptionGoneError(subscriptionId);
      throw error;
    }
  }

  async unsubscribe(
    connector: ConnectorSnapshot,
    subscriptionId: string,
    client: ClientOptions,
  ): Promise<void> {
    await this.deps.client(connector, client).unsubscribeEvents(subscriptionId);
  }

  async changed(
    connector: ConnectorSnapshot,
    events: readonly VacancyEvent[],
    options: { now: Date },
    client: ClientOptions,
  ): Promise<Omit<SourcePage, 'after'>> {
    const { reread, deleted } = eventActions(events);
    const jobs =
      reread.length > 0
        ? await this.deps.client(connector, client).getJobOrders(reread, ATS_B_JOB_FIELDS)
        : [];
    const page = atsBPage(jobs, { listedOpen: false, now: options.now });
    // Asked for and not returned: the ATS has no such job order any more (a hard delete not yet told).
    const returned = new Set(jobs.map((job) => readId(job.id)));
    const gone = reread.map(String).filter((id) => !returned.has(id));
    return { ...page, closed: [...page.closed, ...deleted.map(String), ...gone] };
  }
}
