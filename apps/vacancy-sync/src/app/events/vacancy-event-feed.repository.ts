import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { preparedStatements, type RowOf, type SqlQueryable } from '@connector/persistence';
import { RELEASE_LEASE } from '../runs/sync-run.sql';
import type { FeedMode } from './event-feed';
import {
  ACCOUNT_SUBSCRIPTIONS,
  APPLY_BATCH,
  CLAIM_DUE_FEEDS,
  DELETE_FEED,
  ENSURE_FEED,
  FALL_BACK,
  FEED,
  FEED_ROW,
  HEAL_POLL_PERIOD,
  READ_EMPTY,
  READ_FAILED,
  RESCHEDULE,
  STORE_REQUEST,
  SUBSCRIBE_FAILED,
  SUBSCRIBED,
  TRY_FEED_LEASE,
} from './vacancy-event-feed.sql';

/** A connector's event feed as `vacancy_event_feed` keeps it. */
export interface EventFeed {
  connectorId: string;
  accountId: string;
  subscriptionId: string;
  mode: FeedMode;
  pendingRequestId?: number;
  nextReadAt: Date;
  pollSeconds: number;
  lastReadAt?: Date;
  lastEventAt?: Date;
  since: Date;
  reason?: string;
  failures: number;
  catchUp: boolean;
}

/** What a batch's apply commits (as a run's page commit does for its vacancies). */
export interface FeedBatchCommit {
  seen: Array<{ externalId: string; contentHash: string }>;
  liveUntil: ReadonlyMap<string, string>;
  closed: string[];
  lastEventAt?: Date;
  /** When the feed is read next; none: one poll period from now. */
  nextInSeconds?: number;
}

/**
 * `vacancy_event_feed`: per connector its subscription and where reading it stands. Polls take the connector's
 * run lease (`sync_connector`), so a poll and a run never work on one connector at once.
 */
@Injectable()
export class VacancyEventFeedRepository {
  private readonly sql: SqlQueryable;

  constructor(@InjectDataSource() db: DataSource) {
    this.sql = preparedStatements(db);
  }

  async ensure(
    connectorId: string,
    accountId: string,
    subscriptionId: string,
    pollSeconds: number,
  ): Promise<EventFeed> {
    const [row] = await ENSURE_FEED.rows(this.sql, { connectorId, accountId, subscriptionId, pollSeconds });
    if (!row) throw new Error(`the event feed of connector ${connectorId} was neither made nor found`);
    return feedOf(row);
  }

  /** The feed, and whether its connector is active (not disabled, not waiting for authorization). */
  async feed(connectorId: string): Promise<(EventFeed & { active: boolean }) | undefined> {
    const [row] = await FEED.rows(this.sql, { connectorId });
    return row ? { ...feedOf(row), active: row.active } : undefined;
  }

  async remove(connectorId: string): Promise<EventFeed | undefined> {
    const [row] = await DELETE_FEED.rows(this.sql, { connectorId });
    return row ? feedOf(row) : undefined;
  }

  /** Up to `limit` due feeds, claimed for `claimSeconds` (no other poller takes them meanwhile). */
  async claimDue(limit: number, claimSeconds: number): Promise<EventFeed[]> {
    if (limit <= 0) return [];
    return (await CLAIM_DUE_FEEDS.rows(this.sql, { limit, claimSeconds })).map(feedOf);
  }

  async tryLease(connectorId: string, owner: string, ttlMs: number): Promise<boolean> {
    return (
      (await TRY_FEED_LEASE.rows(this.sql, { connectorId, owner, leaseSeconds: ttlMs / 1000 })).length > 0
    );
  }

  async releaseLease(connectorId: string, owner: string): Promise<void> {
    await RELEASE_LEASE.rows(this.sql, { connectorId, owner });
  }

  /** Read again `inSeconds` from now; none: one poll period from now (the feed's own, as options set it). */
  async reschedule(connectorId: string, inSeconds?: number): Promise<void> {
    await RESCHEDULE.rows(this.sql, { connectorId, inSeconds: inSeconds ?? null });
  }

  /** The subscriptions the account holds besides the connector's (feeds on events). */
  async accountSubscriptions(accountId: string, connectorId: string): Promise<number> {
    const [row] = await ACCOUNT_SUBSCRIPTIONS.rows(this.sql, { accountId, connectorId });
    return row?.held ?? 0;
  }

  /** The poll period of options newer than any applied (a lost `connector.changed`); false: none applied. */
  async healPollPeriod(connectorId: string, version: number, pollSeconds: number): Promise<boolean> {
    const [row] = await HEAL_POLL_PERIOD.rows(this.sql, { connectorId, version, pollSeconds });
    return row?.healed === true;
  }

  async storeRequest(connectorId: string, requestId: number): Promise<void> {
    await STORE_REQUEST.rows(this.sql, { connectorId, requestId });
  }

  /** False when the lease was lost (nothing written). */
  async apply(
    connectorId: string,
    lease: { owner: string; ttlMs: number },
    batch: FeedBatchCommit,
  ): Promise<boolean> {
    const [row] = await APPLY_BATCH.rows(this.sql, {
      connectorId,
      owner: lease.owner,
      leaseSeconds: lease.ttlMs / 1000,
      seenIds: batch.seen.map((v) => v.externalId),
      seenHashes: batch.seen.map((v) => v.contentHash),
      seenLiveUntil: batch.seen.map((v) => batch.liveUntil.get(v.externalId) ?? null),
      closedIds: batch.closed,
      lastEventAt: batch.lastEventAt ?? null,
      nextInSeconds: batch.nextInSeconds ?? null,
    });
    return row?.held === true;
  }

  async readEmpty(connectorId: string): Promise<void> {
    await READ_EMPTY.rows(this.sql, { connectorId });
  }

  /** The failures in a row so far. */
  async readFailed(connectorId: string, inSeconds: number): Promise<number> {
    const [row] = await READ_FAILED.rows(this.sql, { connectorId, inSeconds });
    return row?.failures ?? 0;
  }

  /** The mode before (undefined: no feed). */
  async fallBack(connectorId: string, reason: string, retrySeconds: number): Promise<FeedMode | undefined> {
    const [row] = await FALL_BACK.rows(this.sql, { connectorId, reason, retrySeconds });
    return row?.before as FeedMode | undefined;
  }

  async subscribeFailed(connectorId: string, reason: string, retrySeconds: number): Promise<void> {
    await SUBSCRIBE_FAILED.rows(this.sql, { connectorId, reason, retrySeconds });
  }

  /** True when a catch-up run was asked for. */
  async subscribed(connectorId: string): Promise<boolean> {
    const [row] = await SUBSCRIBED.rows(this.sql, { connectorId, runId: randomUUID() });
    return row?.asked === true;
  }
}

export function feedOf(row: RowOf<typeof FEED_ROW>): EventFeed {
  return {
    connectorId: row.connector_id,
    accountId: row.account_id,
    subscriptionId: row.subscription_id,
    mode: row.mode as FeedMode,
    ...(row.pending_request_id !== null ? { pendingRequestId: row.pending_request_id } : {}),
    nextReadAt: row.next_read_at,
    pollSeconds: row.poll_seconds,
    ...(row.last_read_at ? { lastReadAt: row.last_read_at } : {}),
    ...(row.last_event_at ? { lastEventAt: row.last_event_at } : {}),
    since: row.since,
    ...(row.reason ? { reason: row.reason } : {}),
    failures: row.failures,
    catchUp: row.catch_up,
  };
}
