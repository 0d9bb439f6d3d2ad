/**
 * The event feed's statements (hand SQL, prepared: a fleet's pollers run them every few seconds). The claim
 * takes due feeds with FOR UPDATE SKIP LOCKED and moves them ahead in the same statement, so processes share
 * the feeds and never read one twice at once; a crashed poller's claim lapses when that time comes.
 * A statement that reads a feed's values before changing them (`before`) reads them from its snapshot, without
 * FOR UPDATE: a row locked in one CTE and updated in another of the same statement is skipped by the lock.
 */
import { type RowShape, sqlStatement } from '@connector/persistence';
import { OPEN_STATUSES } from '../runs/sync-run.sql';

/** What a statement answering a feed returns of it (`feedOf` reads it). */
export const FEED_ROW = {
  connector_id: 'string',
  account_id: 'string',
  subscription_id: 'string',
  mode: 'string',
  pending_request_id: 'number | null',
  next_read_at: 'date',
  poll_seconds: 'number',
  last_read_at: 'date | null',
  last_event_at: 'date | null',
  since: 'date',
  reason: 'string | null',
  failures: 'number',
  catch_up: 'boolean',
} as const satisfies RowShape;

const FEED_COLUMNS = Object.keys(FEED_ROW).join(', ');

/**
 * A connector's feed, made if it has none (to be subscribed at once: `polling` until the ATS says yes).
 * Answers the feed either way, one row.
 */
export const ENSURE_FEED = sqlStatement<{
  connectorId: string;
  accountId: string;
  subscriptionId: string;
  pollSeconds: number;
}>(
  (p) => `
  WITH made AS (
    INSERT INTO vacancy_event_feed
      (connector_id, account_id, subscription_id, mode, next_read_at, reason, poll_seconds)
    VALUES (${p.connectorId}, ${p.accountId}, ${p.subscriptionId}, 'polling', clock_timestamp(),
            'The event subscription is being made', ${p.pollSeconds})
    ON CONFLICT (connector_id) DO NOTHING
    RETURNING ${FEED_COLUMNS}
  )
  SELECT ${FEED_COLUMNS} FROM made
  UNION ALL
  SELECT ${FEED_COLUMNS} FROM vacancy_event_feed WHERE connector_id = ${p.connectorId}`,
).withRow(FEED_ROW);

/** A connector's feed, and whether the connector is active (scheduled) at all. */
export const FEED = sqlStatement<{ connectorId: string }>(
  (p) => `
  SELECT ${FEED_COLUMNS.replace(/(\w+)/g, 'f.$1')}, coalesce(c.active, false) AS active
  FROM vacancy_event_feed f LEFT JOIN sync_connector c ON c.connector_id = f.connector_id
  WHERE f.connector_id = ${p.connectorId}`,
).withRow({ ...FEED_ROW, active: 'boolean' });

export const DELETE_FEED = sqlStatement<{ connectorId: string }>(
  (p) => `DELETE FROM vacancy_event_feed WHERE connector_id = ${p.connectorId} RETURNING ${FEED_COLUMNS}`,
).withRow(FEED_ROW);

/**
 * Claims up to `limit` due feeds for this poller: each moves `claimSeconds` ahead (its claim; the poll sets the
 * real next read when it ends). Rows another poller is claiming are skipped, not waited for.
 */
export const CLAIM_DUE_FEEDS = sqlStatement<{ limit: number; claimSeconds: number }>(
  (p) => `
  WITH due AS (
    SELECT connector_id FROM vacancy_event_feed
    WHERE next_read_at <= statement_timestamp()
    ORDER BY next_read_at
    LIMIT ${p.limit}
    FOR UPDATE SKIP LOCKED
  )
  UPDATE vacancy_event_feed
  SET next_read_at = clock_timestamp() + make_interval(secs => ${p.claimSeconds}::float8)
  -- By key (an array, not a join: a join would read every feed).
  WHERE connector_id = ANY(ARRAY(SELECT connector_id FROM due))
  RETURNING ${FEED_COLUMNS}`,
).withRow(FEED_ROW);

/**
 * The event subscriptions an account holds at its ATS besides the connector's (feeds on events), read through
 * the partial index of such feeds: the vendor caps subscriptions per customer.
 */
export const ACCOUNT_SUBSCRIPTIONS = sqlStatement<{ accountId: string; connectorId: string }>(
  (p) => `
  SELECT count(*)::int AS held FROM vacancy_event_feed
  WHERE account_id = ${p.accountId} AND mode = 'events' AND connector_id <> ${p.connectorId}`,
).withRow({ held: 'number' });

/**
 * Takes the connector's run lease for a poll, as a run takes it, unless a run holds it or the connector has an
 * open run (a run reads the same changes; the events wait at the ATS) or is not active.
 */
export const TRY_FEED_LEASE = sqlStatement<{ connectorId: string; owner: string; leaseSeconds: number }>(
  (p) => `
  UPDATE sync_connector s
  SET lease_owner = ${p.owner}, lease_until = clock_timestamp() + make_interval(secs => ${p.leaseSeconds}::float8)
  WHERE s.connector_id = ${p.connectorId} AND s.active
    AND (s.lease_until IS NULL OR s.lease_until < clock_timestamp() OR s.lease_owner = ${p.owner})
    AND NOT EXISTS (
      SELECT 1 FROM sync_run r WHERE r.connector_id = s.connector_id AND r.status IN ${OPEN_STATUSES})
  RETURNING s.connector_id`,
).withRow({ connector_id: 'string' });

/**
 * The poll is done with the feed for now: it is read again `inSeconds` from now, or (null) one poll period from
 * now. The period is the row's, set from the connector's options when they change (APPLY_OPTIONS), never from
 * what a poll read: a poll that read the options just before a change cannot undo it.
 */
export const RESCHEDULE = sqlStatement<{ connectorId: string; inSeconds: number | null }>(
  (p) => `
  UPDATE vacancy_event_feed
  SET next_read_at = clock_timestamp() + make_interval(secs => coalesce(${p.inSeconds}::float8, poll_seconds))
  WHERE connector_id = ${p.connectorId}`,
);

/**
 * A poll read options of a connector version newer than any applied (its `connector.changed` was lost: the
 * registry could not announce it): the feed takes their poll period. Never an older version's: a poll that read
 * a snapshot from before a change changes nothing. Answers whether it applied.
 */
export const HEAL_POLL_PERIOD = sqlStatement<{ connectorId: string; version: number; pollSeconds: number }>(
  (p) => `
  WITH applied AS (
    UPDATE sync_connector SET options_version = ${p.version}
    WHERE connector_id = ${p.connectorId} AND options_version < ${p.version}
    RETURNING connector_id
  ),
  healed AS (
    UPDATE vacancy_event_feed SET poll_seconds = ${p.pollSeconds}::int
    WHERE connector_id = (SELECT connector_id FROM applied)
    RETURNING connector_id
  )
  SELECT EXISTS (SELECT 1 FROM healed) AS healed`,
).withRow({ healed: 'boolean' });

/** A batch was read: its requestId is kept before anything is acted on, so a crash reads it again. */
export const STORE_REQUEST = sqlStatement<{ connectorId: string; requestId: number }>(
  (p) => `
  UPDATE vacancy_event_feed SET pending_request_id = ${p.requestId}, last_read_at = clock_timestamp()
  WHERE connector_id = ${p.connectorId}`,
);

/** What APPLY_BATCH takes. */
export interface ApplyValues {
  connectorId: string;
  owner: string;
  leaseSeconds: number;
  /** Live vacancies published or found unchanged (in step). */
  seenIds: string[];
  seenHashes: string[];
  seenLiveUntil: Array<string | null>;
  closedIds: string[];
  /** The newest event's ATS time; null keeps the last. */
  lastEventAt: Date | null;
  /** When the feed is read next; null: one poll period from now. */
  nextInSeconds: number | null;
}

/**
 * A batch applied, in one statement with the run lease check (a poller that lost the lease changes nothing):
 * the vacancies' states as a run's page commits them (a new one is marked seen by `events`, which a complete
 * full listing replaces), closures, and the feed's batch done. Answers `held`.
 */
export const APPLY_BATCH = sqlStatement<ApplyValues>(
  (p) => `
  WITH held AS (
    UPDATE sync_connector
    SET lease_until = clock_timestamp() + make_interval(secs => ${p.leaseSeconds}::float8)
    WHERE connector_id = ${p.connectorId} AND lease_owner = ${p.owner} AND lease_until >= clock_timestamp()
    RETURNING connector_id
  ),
  seen AS (
    INSERT INTO vacancy_state AS s
      (connector_id, external_id, content_hash, live, last_seen_run, live_until, updated_at)
    SELECT held.connector_id, v.external_id, v.content_hash, true, 'events', v.live_until, now()
    FROM held, unnest(${p.seenIds}::text[], ${p.seenHashes}::text[], ${p.seenLiveUntil}::date[])
      AS v(external_id, content_hash, live_until)
    ON CONFLICT (connector_id, external_id) DO UPDATE
    SET content_hash = EXCLUDED.content_hash, live = true, live_until = EXCLUDED.live_until,
        updated_at = CASE WHEN s.content_hash = EXCLUDED.content_hash AND s.live THEN s.updated_at ELSE now() END
  ),
  closed AS (
    UPDATE vacancy_state SET live = false, updated_at = now()
    WHERE connector_id = (SELECT connector_id FROM held) AND external_id = ANY(${p.closedIds}::text[]) AND live
  ),
  done AS (
    UPDATE vacancy_event_feed
    SET pending_request_id = NULL, last_read_at = clock_timestamp(), failures = 0,
        last_event_at = coalesce(${p.lastEventAt}::timestamptz, last_event_at),
        next_read_at = clock_timestamp() + make_interval(secs => coalesce(${p.nextInSeconds}::float8, poll_seconds))
    WHERE connector_id = ${p.connectorId} AND EXISTS (SELECT 1 FROM held)
  )
  SELECT EXISTS (SELECT 1 FROM held) AS held`,
).withRow({ held: 'boolean' });

/** An empty read: the feed is read again after its poll period. */
export const READ_EMPTY = sqlStatement<{ connectorId: string }>(
  (p) => `
  UPDATE vacancy_event_feed
  SET pending_request_id = NULL, last_read_at = clock_timestamp(), failures = 0,
      next_read_at = clock_timestamp() + make_interval(secs => poll_seconds)
  WHERE connector_id = ${p.connectorId}`,
);

/** A read failed and the feed stays on events: tried again after `inSeconds`. Answers the failures so far. */
export const READ_FAILED = sqlStatement<{ connectorId: string; inSeconds: number }>(
  (p) => `
  UPDATE vacancy_event_feed
  SET failures = failures + 1, next_read_at = clock_timestamp() + make_interval(secs => ${p.inSeconds}::float8)
  WHERE connector_id = ${p.connectorId}
  RETURNING failures`,
).withRow({ failures: 'number' });

/**
 * The subscription is lost or failing: the feed falls back to polling with why, the subscription is made again
 * after `retrySeconds`, and the connector's next run comes now (not after the long interval of a healthy feed).
 * Answers the feed's mode before, so a change of mode is counted once.
 */
export const FALL_BACK = sqlStatement<{ connectorId: string; reason: string; retrySeconds: number }>(
  (p) => `
  WITH before AS (SELECT mode FROM vacancy_event_feed WHERE connector_id = ${p.connectorId}),
  fell AS (
    UPDATE vacancy_event_feed
    SET since = CASE WHEN mode = 'polling' THEN since ELSE clock_timestamp() END,
        mode = 'polling', reason = ${p.reason}, pending_request_id = NULL, catch_up = true,
        failures = failures + 1,
        next_read_at = clock_timestamp() + make_interval(secs => ${p.retrySeconds}::float8)
    WHERE connector_id = ${p.connectorId}
    RETURNING connector_id
  ),
  pulled AS (
    UPDATE sync_connector SET next_run_at = least(next_run_at, clock_timestamp())
    WHERE connector_id = (SELECT connector_id FROM fell) AND active
      AND (SELECT mode FROM before) = 'events'
  )
  SELECT mode AS before FROM before`,
).withRow({ before: 'string' });

/** Making the subscription failed again: tried again after `retrySeconds`, the reason updated. */
export const SUBSCRIBE_FAILED = sqlStatement<{ connectorId: string; reason: string; retrySeconds: number }>(
  (p) => `
  UPDATE vacancy_event_feed
  SET reason = ${p.reason}, failures = failures + 1,
      next_read_at = clock_timestamp() + make_interval(secs => ${p.retrySeconds}::float8)
  WHERE connector_id = ${p.connectorId}`,
);

/**
 * The ATS has the subscription (made or made again): the feed is on events, read after its poll period. When it
 * had been lost (`catch_up`), a full run is asked for at once, unless one is open (a run that makes the
 * subscription before it lists is that run): a subscription made again starts empty, and only a full listing
 * also notices what was deleted for good meanwhile. Answers whether a run was asked for.
 */
export const SUBSCRIBED = sqlStatement<{ connectorId: string; runId: string }>(
  (p) => `
  WITH before AS (
    SELECT catch_up, account_id FROM vacancy_event_feed WHERE connector_id = ${p.connectorId}
  ),
  healthy AS (
    UPDATE vacancy_event_feed
    SET mode = 'events', reason = NULL, failures = 0, catch_up = false, since = clock_timestamp(),
        pending_request_id = NULL,
        next_read_at = clock_timestamp() + make_interval(secs => poll_seconds)
    WHERE connector_id = ${p.connectorId}
    RETURNING connector_id
  ),
  asked AS (
    INSERT INTO sync_run (run_id, connector_id, account_id, trigger, requested_mode, status)
    SELECT ${p.runId}, ${p.connectorId}, b.account_id, 'scheduled', 'full', 'queued'
    FROM before b
    WHERE b.catch_up AND EXISTS (SELECT 1 FROM healthy)
      AND EXISTS (SELECT 1 FROM sync_connector c WHERE c.connector_id = ${p.connectorId} AND c.active)
      AND NOT EXISTS (
        SELECT 1 FROM sync_run r WHERE r.connector_id = ${p.connectorId} AND r.status IN ${OPEN_STATUSES})
    RETURNING run_id
  )
  SELECT EXISTS (SELECT 1 FROM asked) AS asked`,
).withRow({ asked: 'boolean' });
