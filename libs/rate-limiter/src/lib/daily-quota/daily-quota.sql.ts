import { type Placeholders, type RowShape, sqlStatement } from '@connector/persistence';
import { ATS_QUOTA_TABLE, ATS_QUOTA_WAITER_TABLE } from './daily-quota.migration';

const Q = `"${ATS_QUOTA_TABLE}"`;
const W = `"${ATS_QUOTA_WAITER_TABLE}"`;

/** The row locked, rolled over when its reset has passed (`nextReset`: the next configured reset, epoch ms). */
function lockedAndRolled(p: Placeholders<{ key: string; nextReset: number }>): string {
  return `
locked AS (
  SELECT q.*, clock_timestamp() AS now_ts FROM ${Q} AS q WHERE q.key = ${p.key} FOR UPDATE
), w AS (
  SELECT l.key, l.now_ts, l.paused_until, l.rate, l.updated_at, l.ats_limit,
         CASE WHEN l.reset_at <= l.now_ts THEN 0 ELSE l.used END AS used0,
         CASE WHEN l.reset_at <= l.now_ts THEN 0 ELSE l.our_used END AS our0,
         CASE WHEN l.reset_at <= l.now_ts THEN 0 ELSE l.push_spent END AS push0,
         CASE WHEN l.reset_at <= l.now_ts THEN 0 ELSE l.sync_spent END AS sync0,
         CASE WHEN l.reset_at <= l.now_ts THEN to_timestamp(${p.nextReset}::float8 / 1000) ELSE l.reset_at END AS reset0
    FROM locked AS l
)`;
}

const RETURNED = `q.daily_limit, q.ats_limit, q.used, q.our_used, q.push_spent, q.sync_spent, q.rate,
          (extract(epoch FROM q.reset_at) * 1000)::float8 AS reset_at_ms,
          (extract(epoch FROM q.paused_until) * 1000)::float8 AS paused_until_ms`;

/** RETURNED's columns: the window as a statement answers it (`windowOf` reads it). */
export const QUOTA_WINDOW_ROW = {
  daily_limit: 'number',
  ats_limit: 'number | null',
  used: 'number',
  our_used: 'number',
  push_spent: 'number',
  sync_spent: 'number',
  rate: 'number',
  reset_at_ms: 'number',
  paused_until_ms: 'number | null',
} as const satisfies RowShape;

/** What ACQUIRE_QUOTA takes: the key's cost and limit, the policy's numbers, and whether it is a push. */
export interface AcquireQuotaValues {
  key: string;
  cost: number;
  /** The configured daily limit. */
  limit: number;
  pushReserveFraction: number;
  syncShareFraction: number;
  windowMs: number;
  /** The next configured reset, epoch ms. */
  nextReset: number;
  rateTauSeconds: number;
  push: boolean;
}

/**
 * The one statement that takes budget: locks the customer system's row (FOR UPDATE re-reads the newest
 * version after waiting), rolls the window over at its reset, and takes `cost` calls when they fit under the
 * limit less the other side's claim (allowanceFor in quota-plan.ts; afterGrant in src/test/quota-plan.model.ts), unless a 429 paused it.
 * Concurrent takers queue on the row lock, so none ever spends the same call twice.
 */
export const ACQUIRE_QUOTA = sqlStatement<AcquireQuotaValues>(
  (p) => `
WITH ${lockedAndRolled(p)}, c AS (
  SELECT w.*, lim.v AS lim,
         least(1::float8, greatest(0::float8,
           extract(epoch FROM w.reset0 - w.now_ts)::float8 * 1000 / ${p.windowMs}::float8)) AS frac
    FROM w CROSS JOIN LATERAL (SELECT least(${p.limit}::float8, coalesce(w.ats_limit, ${p.limit}::float8)) AS v) AS lim
), h AS (
  SELECT c.*,
         greatest(0::float8, ceil(c.lim * ${p.pushReserveFraction}::float8 * c.frac) - c.push0) AS push_claim,
         greatest(0::float8, ceil(c.lim * ${p.syncShareFraction}::float8 * c.frac) - c.sync0) AS sync_claim
    FROM c
), d AS (
  SELECT h.key, h.now_ts, h.used0, h.our0, h.push0, h.sync0, h.reset0,
         (h.paused_until IS NULL OR h.paused_until <= h.now_ts)
         AND h.used0 + ${p.cost}::float8 <= h.lim - CASE WHEN ${p.push}::boolean THEN h.sync_claim ELSE h.push_claim END AS ok,
         greatest(0::float8, ${p.cost}::float8 - greatest(0::float8, h.lim - h.used0 - h.push_claim - h.sync_claim)) AS own,
         h.rate * exp(-greatest(0::float8, extract(epoch FROM h.now_ts - h.updated_at)::float8) / ${p.rateTauSeconds}::float8) AS rate0
    FROM h
)
UPDATE ${Q} AS q
   SET daily_limit = ${p.limit}::float8,
       used = d.used0 + CASE WHEN d.ok THEN ${p.cost}::float8 ELSE 0 END,
       our_used = d.our0 + CASE WHEN d.ok THEN ${p.cost}::float8 ELSE 0 END,
       push_spent = d.push0 + CASE WHEN d.ok AND ${p.push}::boolean THEN d.own ELSE 0 END,
       sync_spent = d.sync0 + CASE WHEN d.ok AND NOT ${p.push}::boolean THEN d.own ELSE 0 END,
       reset_at = d.reset0,
       rate = d.rate0 + CASE WHEN d.ok THEN ${p.cost}::float8 / ${p.rateTauSeconds}::float8 ELSE 0 END,
       updated_at = greatest(q.updated_at, d.now_ts)
  FROM d
 WHERE q.key = d.key
RETURNING d.ok AS granted, ${RETURNED}, (extract(epoch FROM d.now_ts) * 1000)::float8 AS now_ms`,
).withRow({ granted: 'boolean', ...QUOTA_WINDOW_ROW, now_ms: 'number' });

/** An answer's X-RateLimit-* headers as OBSERVE_HEADERS takes them (`resetAt`, `nextReset`: epoch ms). */
export interface ObserveValues {
  key: string;
  limit: number | null;
  remaining: number | null;
  resetAt: number | null;
  nextReset: number;
}

/**
 * An answer's X-RateLimit-* headers: `used` rises to the ATS's count (limit − remaining), the reset and the
 * ATS's limit are taken as named. An answer naming a reset already past crossed it on its way: ignored.
 */
export const OBSERVE_HEADERS = sqlStatement<ObserveValues>(
  (p) => `
WITH ${lockedAndRolled(p)}, o AS (
  SELECT w.*, (${p.resetAt}::float8 IS NOT NULL AND to_timestamp(${p.resetAt}::float8 / 1000) <= w.now_ts) AS stale FROM w
)
UPDATE ${Q} AS q
   SET used = CASE WHEN o.stale THEN o.used0
                   ELSE greatest(o.used0, coalesce(coalesce(${p.limit}::float8, o.ats_limit) - ${p.remaining}::float8, 0)) END,
       our_used = o.our0,
       push_spent = o.push0,
       sync_spent = o.sync0,
       reset_at = CASE WHEN o.stale OR ${p.resetAt}::float8 IS NULL THEN o.reset0 ELSE to_timestamp(${p.resetAt}::float8 / 1000) END,
       ats_limit = CASE WHEN o.stale THEN q.ats_limit ELSE coalesce(${p.limit}::float8, q.ats_limit) END
  FROM o
 WHERE q.key = o.key
RETURNING q.key`,
).withRow({ key: 'string' });

export const ENSURE_QUOTA = sqlStatement<{ key: string; limit: number; nextReset: number }>(
  (p) => `
INSERT INTO ${Q} (key, daily_limit, used, our_used, reset_at, updated_at)
VALUES (${p.key}, ${p.limit}::float8, 0, 0, to_timestamp(${p.nextReset}::float8 / 1000), clock_timestamp())
ON CONFLICT (key) DO NOTHING`,
);

// greatest() ignores NULL and never shortens a pause another worker set from a later Retry-After.
export const PAUSE_QUOTA = sqlStatement<{ key: string; untilMs: number }>(
  (p) =>
    `UPDATE ${Q} SET paused_until = greatest(paused_until, to_timestamp(${p.untilMs}::float8 / 1000)) WHERE key = ${p.key}`,
);
export const SET_QUOTA_LIMIT = sqlStatement<{ key: string; limit: number }>(
  (p) => `UPDATE ${Q} SET daily_limit = ${p.limit}::float8 WHERE key = ${p.key}`,
);
/** Every customer system's window as it stands (rolled over when its reset has passed), for the metrics. */
export const QUOTA_USAGE = sqlStatement<Record<string, never>>(
  () => `
SELECT q.key,
       CASE WHEN q.reset_at <= clock_timestamp() THEN 0 ELSE q.used END AS used,
       least(q.daily_limit, coalesce(q.ats_limit, q.daily_limit)) AS lim,
       (extract(epoch FROM q.reset_at) * 1000)::float8 AS reset_at_ms,
       (q.paused_until IS NOT NULL AND q.paused_until > clock_timestamp()) AS paused
  FROM ${Q} AS q ORDER BY q.key`,
).withRow({ key: 'string', used: 'number', lim: 'number', reset_at_ms: 'number', paused: 'boolean' });

export const READ_QUOTA = sqlStatement<{ key: string }>(
  (p) => `
SELECT ${RETURNED}, (extract(epoch FROM q.updated_at) * 1000)::float8 AS updated_at_ms,
       (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now_ms
  FROM ${Q} AS q WHERE q.key = ${p.key}`,
).withRow({ ...QUOTA_WINDOW_ROW, updated_at_ms: 'number', now_ms: 'number' });

// A waiter counts while it keeps coming back (seen within 15 min) or its named wait is not over.
const WAITER_LIVE = `greatest(seen_at + interval '15 minutes', waiting_until + interval '1 minute') > clock_timestamp()`;
export const WAIT = sqlStatement<{ key: string; waiterId: string; kind: string; untilMs: number }>(
  (p) => `
WITH purge AS (DELETE FROM ${W} WHERE key = ${p.key} AND NOT (${WAITER_LIVE}))
INSERT INTO ${W} (key, waiter_id, kind, waiting_until, seen_at)
VALUES (${p.key}, ${p.waiterId}, ${p.kind}, to_timestamp(${p.untilMs}::float8 / 1000), clock_timestamp())
ON CONFLICT (key, waiter_id) DO UPDATE SET kind = EXCLUDED.kind, waiting_until = EXCLUDED.waiting_until,
  seen_at = EXCLUDED.seen_at`,
);
export const DONE_WAITING = sqlStatement<{ key: string; waiterIds: string[] }>(
  (p) => `DELETE FROM ${W} WHERE key = ${p.key} AND waiter_id = ANY(${p.waiterIds}::text[])`,
);
export const WAITERS = sqlStatement<{ key: string }>(
  (p) => `
SELECT kind, count(*)::int AS n, (extract(epoch FROM max(waiting_until)) * 1000)::float8 AS until_ms
  FROM ${W} WHERE key = ${p.key} AND ${WAITER_LIVE} GROUP BY kind`,
).withRow({ kind: 'string', n: 'number', until_ms: 'number' });
