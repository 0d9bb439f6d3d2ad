import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AtsSystems, type ClientOptions, ConnectorDirectory } from '@connector/ats-client-factory';
import { AtsError } from '@connector/ats-http';
import {
  AtsRegistry,
  SubscriptionGoneError,
  type VacancyEventBatch,
  type VacancyEventSource,
} from '@connector/ats-core';
import {
  type ConnectorSnapshot,
  createEvent,
  Exchange,
  RoutingKey,
  type VacancyEventFeedStatus,
} from '@connector/contracts';
import { type JobMapping, validateJobMapping } from '@connector/job-mapping';
import { MessagePublisher, RpcError } from '@connector/messaging';
import { decideRunFailure } from '../runs/run-failure';
import { decidePage } from '../vacancies/page-decision';
import { VacancyStateRepository } from '../vacancies/vacancy-state.repository';
import { VacancySyncConfig } from '../vacancy-sync.config';
import {
  afterReadFailure,
  eventPollSecondsOf,
  eventsUnavailableWarning,
  MAX_RESUBSCRIBE_BACKOFF_SECONDS,
  resubscribeBackoffSeconds,
  subscriptionIdOf,
  unreadTooLong,
} from './event-feed';
import { eventFeedMetrics } from './event-feed-metrics';
import { type EventFeed, VacancyEventFeedRepository } from './vacancy-event-feed.repository';
import { VacancyEventSources } from './vacancy-event-sources';

/** A feed whose connector a run holds is tried again this soon (or at its poll period, when shorter). */
const BUSY_RETRY_SECONDS = 5;
/** How long a poll's ATS call may wait for the connector's budget before the poll is tried again later. */
const POLL_MAX_WAIT_MS = 2_000;

const GONE_REASON = 'the ATS no longer has the subscription (it expired or was removed)';

/**
 * A connector's event feed (capability `vacancy-events`): made when the connector connects (or lazily at its
 * first run), read every `eventPollSeconds`, ended when it is disabled or deleted. A batch's requestId is
 * stored before anything is acted on and cleared with the batch's commit, so a crash reads the batch again;
 * applying goes through the runs' decision (`decidePage`), so a batch read twice publishes nothing new. When
 * the subscription is lost or reads keep failing the feed falls back to polling (the runs go on at their
 * normal interval, with EVENTS_UNAVAILABLE) and makes the subscription again; a changes-only run then catches
 * up on what happened meanwhile.
 */
@Injectable()
export class EventFeedService {
  private readonly logger = new Logger(EventFeedService.name);
  /** Identifies this process's polls in `sync_connector.lease_owner` (not its runs' owner: never re-entrant). */
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}:events`;

  constructor(
    private readonly feeds: VacancyEventFeedRepository,
    private readonly sources: VacancyEventSources,
    private readonly states: VacancyStateRepository,
    private readonly directory: ConnectorDirectory,
    private readonly publisher: MessagePublisher,
    @Inject(VacancySyncConfig) private readonly config: VacancySyncConfig,
    private readonly systems: AtsSystems,
    private readonly registry: AtsRegistry,
  ) {}

  /** The connector's feed, made (to be subscribed at once) when its ATS has events and it has none yet. */
  async ensure(
    connector: Pick<ConnectorSnapshot, 'id' | 'accountId' | 'type' | 'options'>,
  ): Promise<EventFeed | undefined> {
    if (!this.sources.find(connector.type)) return undefined;
    return this.feeds.ensure(
      connector.id,
      connector.accountId,
      subscriptionIdOf(connector.id),
      eventPollSecondsOf(connector.options, this.config.EVENT_POLL_MIN_SECONDS),
    );
  }

  /**
   * A run that has not listed yet, holding the connector's lease, makes the subscription of a feed not on events
   * (a new connector, one switched onto events, one whose subscription was lost) before it lists: what changes
   * while it lists waits at the ATS and is read once the run ends (the content hashes make a change the run
   * published too publish nothing). Never fails the run: a subscription that cannot be made is tried again by
   * the poller. Answers the feed as it is now.
   */
  async subscribeBeforeRun(
    feed: EventFeed,
    connector: ConnectorSnapshot,
    client: ClientOptions,
  ): Promise<EventFeed> {
    const source = this.sources.find(connector.type);
    if (feed.mode === 'events' || !source) return feed;
    try {
      await this.subscribe(feed, connector, source, client);
      return (await this.feeds.feed(connector.id)) ?? feed;
    } catch (error) {
      this.logger.warn(
        `connector ${connector.id}: its run goes on without the subscription: ${reasonOf(error)}`,
      );
      return feed;
    }
  }

  /** A connector became connected: its feed is made (the poller subscribes it at once); else at its first run. */
  async connected(connectorId: string, accountId: string): Promise<void> {
    try {
      const feed = await this.ensure(await this.directory.get(connectorId, accountId));
      if (feed) this.logger.log(`connector ${connectorId}: event feed ${feed.subscriptionId} (${feed.mode})`);
    } catch (error) {
      this.logger.warn(
        `connector ${connectorId}: its event feed is made at its first run: ${reasonOf(error)}`,
      );
    }
  }

  /**
   * The connector is disabled or deleted: its feed ends, and the subscription is deleted at the ATS when the
   * ATS can still be reached for it (otherwise the vendor drops it after a week unread).
   */
  async ended(connectorId: string, accountId: string): Promise<void> {
    const feed = await this.feeds.remove(connectorId);
    if (!feed) return;
    try {
      const connector = await this.directory.get(connectorId, accountId);
      await this.sources.find(connector.type)?.unsubscribe(connector, feed.subscriptionId, this.client());
      this.logger.log(`connector ${connectorId}: event subscription ${feed.subscriptionId} deleted`);
    } catch (error) {
      this.logger.warn(
        `connector ${connectorId}: event subscription ${feed.subscriptionId} left to expire at the ATS: ${reasonOf(error)}`,
      );
    }
  }

  /** The connector's feed, if it has one. */
  feedOf(connectorId: string): Promise<EventFeed | undefined> {
    return this.feeds.feed(connectorId);
  }

  /** What the registry's admin page shows (`vacancy.event-feed.requested`). */
  async status(accountId: string, connectorId: string): Promise<VacancyEventFeedStatus> {
    const feed = await this.feeds.feed(connectorId);
    // No feed, another account's, or a connector not active (disabled, waiting for authorization): off.
    if (!feed || feed.accountId !== accountId || !feed.active) return { connectorId, mode: 'off' };
    return {
      connectorId,
      mode: feed.mode,
      pollSeconds: feed.pollSeconds,
      since: feed.since.toISOString(),
      ...(feed.lastReadAt ? { lastReadAt: feed.lastReadAt.toISOString() } : {}),
      ...(feed.lastEventAt ? { lastEventAt: feed.lastEventAt.toISOString() } : {}),
      ...(feed.reason ? { reason: feed.reason } : {}),
    };
  }

  /** Up to `limit` due feeds claimed for this process (for the lease's length: a crashed poller's claim lapses). */
  claimDue(limit: number): Promise<EventFeed[]> {
    return this.feeds.claimDue(limit, this.config.RUN_LEASE_TTL_MS / 1000);
  }

  /**
   * One poll of a claimed feed, holding the connector's run lease as a run does: a connector a run holds (or
   * with an open run) is passed over until its next poll; its events wait at the ATS.
   */
  async poll(feed: EventFeed): Promise<void> {
    const { connectorId } = feed;
    if (!(await this.feeds.tryLease(connectorId, this.owner, this.config.RUN_LEASE_TTL_MS))) {
      // Tried again soon, not a poll period later: events that came while a run held the connector (a new one's
      // first run among them) wait no longer than the run. A try is one statement, no ATS call.
      await this.feeds.reschedule(connectorId, Math.min(feed.pollSeconds, BUSY_RETRY_SECONDS));
      return;
    }
    try {
      await this.pollHeld(feed);
    } finally {
      await this.feeds.releaseLease(connectorId, this.owner);
    }
  }

  private async pollHeld(feed: EventFeed): Promise<void> {
    const { connectorId } = feed;
    let connector: ConnectorSnapshot;
    try {
      connector = await this.directory.get(connectorId, feed.accountId);
    } catch (error) {
      if (error instanceof RpcError && error.code === 'NOT_FOUND') {
        await this.feeds.remove(connectorId);
        return;
      }
      throw error;
    }
    const source = this.sources.find(connector.type);
    if (!source) {
      await this.feeds.remove(connectorId);
      return;
    }
    // The poll period is the feed's own, set from the options when they change (connector.changed): a poll that
    // read the options just before a change must not undo it. Only options of a newer version than any applied
    // (their announcement was lost) are taken up here.
    let { pollSeconds } = feed;
    const wanted = eventPollSecondsOf(connector.options, this.config.EVENT_POLL_MIN_SECONDS);
    if (
      wanted !== pollSeconds &&
      connector.version !== undefined &&
      (await this.feeds.healPollPeriod(connectorId, connector.version, wanted))
    )
      pollSeconds = wanted;
    if (connector.status !== 'connected') {
      await this.feeds.reschedule(connectorId);
      return;
    }
    if (feed.mode === 'polling') {
      await this.subscribe(feed, connector, source, this.client());
      return;
    }
    if (unreadTooLong(feed, source.limits.retentionMs, new Date())) {
      // Unread for longer than the ATS keeps events (the connector was paused, say): some may be gone.
      eventFeedMetrics.read(connector.type, 'gone');
      const days = Math.round(source.limits.retentionMs / 86_400_000);
      await this.fallBack(
        connector,
        `it was not read for longer than the ATS keeps events (${days} days), so some may have been lost`,
        pollSeconds,
      );
      return;
    }
    let batch: VacancyEventBatch;
    try {
      // One of its ATS system's read slots: busy or failing, the read is rescheduled (failed: a wait).
      batch = await this.systems.run('event-reads', connector, () =>
        source.read(
          connector,
          feed.subscriptionId,
          {
            maxEvents: source.limits.maxEventsPerRead,
            ...(feed.pendingRequestId !== undefined ? { requestId: feed.pendingRequestId } : {}),
          },
          this.client(),
        ),
      );
    } catch (error) {
      if (error instanceof SubscriptionGoneError) {
        eventFeedMetrics.read(connector.type, 'gone');
        await this.fallBack(connector, GONE_REASON, pollSeconds);
        return;
      }
      eventFeedMetrics.read(connector.type, 'failed');
      await this.failed(feed, connector, pollSeconds, error);
      return;
    }
    if (batch.events.length === 0) {
      if (feed.pendingRequestId !== undefined) {
        // The batch read before a crash cannot be read again: a changes-only run catches up on it.
        await this.fallBack(
          connector,
          'a batch of events read before a restart could not be read again',
          pollSeconds,
        );
        return;
      }
      eventFeedMetrics.read(connector.type, 'empty');
      await this.feeds.readEmpty(connectorId);
      return;
    }
    eventFeedMetrics.read(connector.type, 'events', batch.events.length);
    if (feed.pendingRequestId === undefined && batch.requestId !== undefined) {
      await this.feeds.storeRequest(connectorId, batch.requestId);
      if (this.config.EVENT_FEED_CRASH_AFTER_STORE === 'exit') {
        this.logger.warn(
          `connector ${connectorId}: test hook: crashing after storing request ${batch.requestId}`,
        );
        process.kill(process.pid, 'SIGKILL');
      }
    }
    try {
      await this.apply(connector, source, batch);
    } catch (error) {
      await this.failed(feed, connector, pollSeconds, error);
    }
  }

  /** Publishes what the batch changed (the runs' decision) and commits it with the batch done. */
  private async apply(
    connector: ConnectorSnapshot,
    source: VacancyEventSource,
    batch: VacancyEventBatch,
  ): Promise<void> {
    const mapping = mappingOf(this.registry, connector);
    const page = await source.changed(connector, batch.events, { now: new Date() }, this.client());
    const decision = await decidePage(connector, mapping, page, (ids) =>
      this.states.published(connector.id, ids),
    );
    const changedAt = new Map<string, Date>();
    for (const event of batch.events) {
      const id = String(event.entityId);
      const known = changedAt.get(id);
      if (!known || known < event.timestamp) changedAt.set(id, event.timestamp);
    }
    const publish = async (type: string, externalId: string, data: object) => {
      await this.publisher.publish(Exchange.ConnectorEvents, createEvent(type, connector.accountId, data));
      const at = changedAt.get(externalId);
      if (at) eventFeedMetrics.published(connector.type, at);
    };
    await Promise.all([
      ...decision.upserts.map((v) => publish(RoutingKey.VacancyUpserted, v.externalId, v)),
      ...decision.closing.map((externalId) =>
        publish(RoutingKey.VacancyClosed, externalId, { connectorId: connector.id, externalId }),
      ),
    ]);
    const lastEventAt = [...changedAt.values()].reduce<Date | undefined>(
      (a, b) => (!a || b > a ? b : a),
      undefined,
    );
    const held = await this.feeds.apply(
      connector.id,
      { owner: this.owner, ttlMs: this.config.RUN_LEASE_TTL_MS },
      {
        seen: [...decision.upserts, ...decision.unchanged],
        liveUntil: decision.liveUntil,
        closed: decision.closing,
        ...(lastEventAt ? { lastEventAt } : {}),
        // A full batch: more are waiting, read them at once (else one poll period from now).
        ...(batch.events.length >= source.limits.maxEventsPerRead ? { nextInSeconds: 0 } : {}),
      },
    );
    if (!held)
      this.logger.warn(`connector ${connector.id}: lost its lease during a poll; the batch is read again`);
    this.logger.log(
      `connector ${connector.id}: ${batch.events.length} events: ${decision.upserts.length} upserted, ` +
        `${decision.closing.length} closed, ${decision.unchanged.length} unchanged`,
    );
  }

  /**
   * Makes the subscription (the feed is on events after), or says why not and when it is tried again. The
   * vendor caps subscriptions per customer: an account that holds them all makes no more (its connectors beyond
   * are kept current by their runs, and tried again after the longest wait).
   */
  private async subscribe(
    feed: EventFeed,
    connector: ConnectorSnapshot,
    source: VacancyEventSource,
    client: ClientOptions,
  ): Promise<void> {
    const { maxSubscriptions } = source.limits;
    if ((await this.feeds.accountSubscriptions(connector.accountId, connector.id)) >= maxSubscriptions) {
      const reason = `the ATS allows ${maxSubscriptions} event subscriptions per customer and this account holds them all`;
      this.logger.warn(`connector ${connector.id}: no event subscription: ${reason}`);
      await this.feeds.subscribeFailed(connector.id, reason, MAX_RESUBSCRIBE_BACKOFF_SECONDS);
      return;
    }
    try {
      await source.subscribe(connector, feed.subscriptionId, client);
    } catch (error) {
      const retry = resubscribeBackoffSeconds(feed.failures + 1, feed.pollSeconds);
      this.logger.warn(`connector ${connector.id}: making the event subscription failed: ${reasonOf(error)}`);
      await this.feeds.subscribeFailed(
        connector.id,
        `making the subscription failed: ${reasonOf(error)}`,
        retry,
      );
      return;
    }
    const caughtUp = await this.feeds.subscribed(connector.id);
    eventFeedMetrics.mode(connector.type, 'events');
    this.logger.log(
      `connector ${connector.id}: on events (subscription ${feed.subscriptionId})` +
        (caughtUp ? '; a full run catches up on what happened while it was lost' : ''),
    );
  }

  /** A read or an apply failed: tried again after a backoff; failing again and again, the feed falls back. */
  private async failed(
    feed: EventFeed,
    connector: ConnectorSnapshot,
    pollSeconds: number,
    error: unknown,
  ): Promise<void> {
    // Waiting for budget (ours or the ATS's 429) is not a failure of the feed: read again after the reset.
    const now = new Date();
    const decision = decideRunFailure(error, {
      connectorId: connector.id,
      attempts: 0,
      now,
      inlineWaitMaxMs: 0,
    });
    if (decision.action === 'wait') {
      const inSeconds = Math.max(1, Math.ceil((decision.until.getTime() - now.getTime()) / 1000));
      await this.feeds.reschedule(connector.id, inSeconds);
      return;
    }
    const failures = await this.feeds.readFailed(
      connector.id,
      resubscribeBackoffSeconds(feed.failures + 1, pollSeconds),
    );
    this.logger.warn(
      `connector ${connector.id}: reading events failed (${failures} in a row): ${reasonOf(error)}`,
    );
    if (afterReadFailure(failures) === 'polling') {
      await this.fallBack(
        connector,
        `reading it failed ${failures} times in a row: ${reasonOf(error)}`,
        pollSeconds,
      );
    }
  }

  private async fallBack(connector: ConnectorSnapshot, reason: string, pollSeconds: number): Promise<void> {
    const before = await this.feeds.fallBack(connector.id, reason, pollSeconds);
    if (before === 'events') {
      eventFeedMetrics.mode(connector.type, 'polling');
      this.logger.warn(`connector ${connector.id}: ${eventsUnavailableWarning(reason).message}`);
    }
  }

  private client(): ClientOptions {
    return { priority: 'sync', maxWaitMs: POLL_MAX_WAIT_MS };
  }
}

/** Whether a feed is down (lost or failing, not just being made for a new connector): runs then warn. */
export function feedDown(feed: EventFeed | undefined): boolean {
  return feed !== undefined && feed.mode === 'polling' && (feed.catchUp || feed.failures > 0);
}

/** The connector's mapping; one that does not validate is not applied (its runs fail and say why). */
function mappingOf(registry: AtsRegistry, connector: ConnectorSnapshot): JobMapping {
  const errors = validateJobMapping(registry.get(connector.type).mapping, connector.mapping?.mapping);
  if (errors.length > 0) throw new Error(`job mapping is not valid: ${errors.join('; ')}`);
  return connector.mapping.mapping as unknown as JobMapping;
}

/** Why, in words an admin reads (the ATS's code where it has one; never its message, which may quote data). */
function reasonOf(error: unknown): string {
  if (error instanceof AtsError) {
    if (error.code === 'errors.subscriptionLimitExceeded')
      return 'the ATS allows no more event subscriptions for this customer';
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
