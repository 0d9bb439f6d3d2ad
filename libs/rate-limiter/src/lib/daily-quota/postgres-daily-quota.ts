import {
  booleanColumn,
  nullableNumberColumn,
  numberColumn,
  rowsOf,
  type SqlQueryable,
  type SqlRow,
  textColumn,
} from '@connector/persistence';
import { RateLimiterErrorCode, RateLimitExceededError } from '../rate-limiter.errors';
import { systemClock, type AcquireResult, type Clock } from '../rate-limiter';
import { ATS_QUOTA_TABLE, ATS_QUOTA_WAITER_TABLE } from './daily-quota.migration';
import {
  assertValidPolicy,
  decayedRate,
  decide,
  DEFAULT_QUOTA_POLICY,
  nextConfiguredReset,
  planView,
  type QuotaPlanView,
  type QuotaPolicy,
  type QuotaPriority,
  type QuotaWindow,
} from './quota-plan';

const Q = `"${ATS_QUOTA_TABLE}"`;
const W = `"${ATS_QUOTA_WAITER_TABLE}"`;

/** The row locked, rolled over when its reset has passed (`nextReset`: the next configured reset, epoch ms). */
const lockedAndRolled = (nextReset: string) => `
locked AS (
  SELECT q.*, clock_timestamp() AS now_ts FROM ${Q} AS q WHERE q.key = $1 FOR UPDATE
), w AS (
  SELECT l.key, l.now_ts, l.paused_until, l.rate, l.updated_at, l.ats_limit,
         CASE WHEN l.reset_at <= l.now_ts THEN 0 ELSE l.used END AS used0,
         CASE WHEN l.reset_at <= l.now_ts THEN 0 ELSE l.our_used END AS our0,
         CASE WHEN l.reset_at <= l.now_ts THEN 0 ELSE l.push_spent END AS push0,
         CASE WHEN l.reset_at <= l.now_ts THEN 0 ELSE l.sync_spent END AS sync0,
         CASE WHEN l.reset_at <= l.now_ts THEN to_timestamp(${nextReset}::float8 / 1000) ELSE l.reset_at END AS reset0
    FROM locked AS l
)`;

const RETURNED = `q.daily_limit, q.ats_limit, q.used, q.our_used, q.push_spent, q.sync_spent, q.rate,
          (extract(epoch FROM q.reset_at) * 1000)::float8 AS reset_at_ms,
          (extract(epoch FROM q.paused_until) * 1000)::float8 AS paused_until_ms`;

/**
 * The one statement that takes budget: locks the customer system's row (FOR UPDATE re-reads the newest
 * version after waiting), rolls the window over at its reset, and takes `cost` calls when they fit under the
 * limit less the other side's claim (allowanceFor and afterGrant in quota-plan.ts), unless a 429 paused it.
 * Concurrent takers queue on the row lock, so none ever spends the same call twice.
 * $1 key, $2 cost, $3 configured limit, $4 push reserve fraction, $5 sync share fraction, $6 window ms,
 * $7 next configured reset (epoch ms), $8 rate time constant (s), $9 true for a push.
 */
export const ACQUIRE_SQL = `
WITH ${lockedAndRolled('$7')}, c AS (
  SELECT w.*, lim.v AS lim,
         least(1::float8, greatest(0::float8,
           extract(epoch FROM w.reset0 - w.now_ts)::float8 * 1000 / $6::float8)) AS frac
    FROM w CROSS JOIN LATERAL (SELECT least($3::float8, coalesce(w.ats_limit, $3::float8)) AS v) AS lim
), h AS (
  SELECT c.*,
         greatest(0::float8, ceil(c.lim * $4::float8 * c.frac) - c.push0) AS push_claim,
         greatest(0::float8, ceil(c.lim * $5::float8 * c.frac) - c.sync0) AS sync_claim
    FROM c
), d AS (
  SELECT h.key, h.now_ts, h.used0, h.our0, h.push0, h.sync0, h.reset0,
         (h.paused_until IS NULL OR h.paused_until <= h.now_ts)
         AND h.used0 + $2::float8 <= h.lim - CASE WHEN $9::boolean THEN h.sync_claim ELSE h.push_claim END AS ok,
         greatest(0::float8, $2::float8 - greatest(0::float8, h.lim - h.used0 - h.push_claim - h.sync_claim)) AS own,
         h.rate * exp(-greatest(0::float8, extract(epoch FROM h.now_ts - h.updated_at)::float8) / $8::float8) AS rate0
    FROM h
)
UPDATE ${Q} AS q
   SET daily_limit = $3::float8,
       used = d.used0 + CASE WHEN d.ok THEN $2::float8 ELSE 0 END,
       our_used = d.our0 + CASE WHEN d.ok THEN $2::float8 ELSE 0 END,
       push_spent = d.push0 + CASE WHEN d.ok AND $9::boolean THEN d.own ELSE 0 END,
       sync_spent = d.sync0 + CASE WHEN d.ok AND NOT $9::boolean THEN d.own ELSE 0 END,
       reset_at = d.reset0,
       rate = d.rate0 + CASE WHEN d.ok THEN $2::float8 / $8::float8 ELSE 0 END,
       updated_at = greatest(q.updated_at, d.now_ts)
  FROM d
 WHERE q.key = d.key
RETURNING d.ok AS granted, ${RETURNED}, (extract(epoch FROM d.now_ts) * 1000)::float8 AS now_ms`;

/**
 * An answer's X-RateLimit-* headers: `used` rises to the ATS's count (limit − remaining), the reset and the
 * ATS's limit are taken as named. An answer naming a reset already past crossed it on its way: ignored.
 * $1 key, $2 X-RateLimit-Limit, $3 X-RateLimit-Remaining, $4 reset (epoch ms), $5 next configured reset.
 */
const OBSERVE_SQL = `
WITH ${lockedAndRolled('$5')}, o AS (
  SELECT w.*, ($4::float8 IS NOT NULL AND to_timestamp($4::float8 / 1000) <= w.now_ts) AS stale FROM w
)
UPDATE ${Q} AS q
   SET used = CASE WHEN o.stale THEN o.used0
                   ELSE greatest(o.used0, coalesce(coalesce($2::float8, o.ats_limit) - $3::float8, 0)) END,
       our_used = o.our0,
       push_spent = o.push0,
       sync_spent = o.sync0,
       reset_at = CASE WHEN o.stale OR $4::float8 IS NULL THEN o.reset0 ELSE to_timestamp($4::float8 / 1000) END,
       ats_limit = CASE WHEN o.stale THEN q.ats_limit ELSE coalesce($2::float8, q.ats_limit) END
  FROM o
 WHERE q.key = o.key
RETURNING q.key`;

const ENSURE_SQL = `
INSERT INTO ${Q} (key, daily_limit, used, our_used, reset_at, updated_at)
VALUES ($1, $2::float8, 0, 0, to_timestamp($3::float8 / 1000), clock_timestamp())
ON CONFLICT (key) DO NOTHING`;

// greatest() ignores NULL and never shortens a pause another worker set from a later Retry-After.
const PAUSE_SQL = `UPDATE ${Q} SET paused_until = greatest(paused_until, to_timestamp($2::float8 / 1000)) WHERE key = $1`;
const SET_LIMIT_SQL = `UPDATE ${Q} SET daily_limit = $2::float8 WHERE key = $1`;
/** Every customer system's window as it stands (rolled over when its reset has passed), for the metrics. */
const USAGE_SQL = `
SELECT q.key,
       CASE WHEN q.reset_at <= clock_timestamp() THEN 0 ELSE q.used END AS used,
       least(q.daily_limit, coalesce(q.ats_limit, q.daily_limit)) AS lim,
       (extract(epoch FROM q.reset_at) * 1000)::float8 AS reset_at_ms,
       (q.paused_until IS NOT NULL AND q.paused_until > clock_timestamp()) AS paused
  FROM ${Q} AS q ORDER BY q.key`;

const READ_SQL = `
SELECT ${RETURNED}, (extract(epoch FROM q.updated_at) * 1000)::float8 AS updated_at_ms,
       (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now_ms
  FROM ${Q} AS q WHERE q.key = $1`;

// A waiter counts while it keeps coming back (seen within 15 min) or its named wait is not over.
const WAITER_LIVE = `greatest(seen_at + interval '15 minutes', waiting_until + interval '1 minute') > clock_timestamp()`;
const WAIT_SQL = `
WITH purge AS (DELETE FROM ${W} WHERE key = $1 AND NOT (${WAITER_LIVE}))
INSERT INTO ${W} (key, waiter_id, kind, waiting_until, seen_at)
VALUES ($1, $2, $3, to_timestamp($4::float8 / 1000), clock_timestamp())
ON CONFLICT (key, waiter_id) DO UPDATE SET kind = EXCLUDED.kind, waiting_until = EXCLUDED.waiting_until,
  seen_at = EXCLUDED.seen_at`;
const DONE_SQL = `DELETE FROM ${W} WHERE key = $1 AND waiter_id = ANY($2::text[])`;
const WAITERS_SQL = `
SELECT kind, count(*)::int AS n, (extract(epoch FROM max(waiting_until)) * 1000)::float8 AS until_ms
  FROM ${W} WHERE key = $1 AND ${WAITER_LIVE} GROUP BY kind`;

/** A customer system's quota as the connector is configured for it. */
export interface QuotaConfig {
  /** Calls allowed per day (the connector's `dailyCallLimit`). */
  limit: number;
  /** Minutes after UTC midnight when the day resets, until the ATS names its reset (default 0). */
  resetMinuteUtc?: number;
}

export interface QuotaAcquireOptions {
  priority: QuotaPriority;
  /** How long acquire may wait in place; 0 fails fast with RateLimitExceededError (retryAt). */
  maxWaitMs?: number;
}

export type WaiterKind = 'message' | 'run';

export interface QuotaHeaders {
  limit: number | null;
  remaining: number | null;
  /** Epoch ms of the reset the ATS named (X-RateLimit-Reset or Retry-After). */
  resetAt: number | null;
}

export interface QuotaSnapshot extends QuotaPlanView {
  key: string;
  waiting: Record<WaiterKind, { count: number; until: number | null }>;
}

/** A customer system's day so far, as the metrics show it. */
export interface QuotaUsage {
  key: string;
  /** Calls used in the current window, everyone's as the ATS counts them (0 once the reset has passed). */
  used: number;
  /** The lower of the configured limit and the ATS's own. */
  limit: number;
  /** Epoch ms of the window's reset (in the past when no call opened the next window yet). */
  resetAt: number;
  /** A 429 paused it. */
  paused: boolean;
}

export interface DailyQuotaStoreOptions {
  policy?: QuotaPolicy;
  clock?: Clock;
  /** Time constant of the call-rate moving average (default 300 s). */
  rateTauSeconds?: number;
}

/**
 * ATS daily quotas shared by every process through Postgres (one row per customer system, see
 * DailyQuotaMigration1764000000000): spends as fast as the work needs within the day's limit, keeps a push
 * reserve and a sync share for the rest of the day, follows the ATS's X-RateLimit-* headers, pauses on 429.
 */
export class PostgresDailyQuota {
  private readonly policy: QuotaPolicy;
  private readonly clock: Clock;
  private readonly tau: number;

  constructor(
    private readonly db: SqlQueryable,
    options: DailyQuotaStoreOptions = {},
  ) {
    this.policy = options.policy ?? DEFAULT_QUOTA_POLICY;
    assertValidPolicy(this.policy);
    this.clock = options.clock ?? systemClock;
    this.tau = options.rateTauSeconds ?? 300;
  }

  /**
   * Takes `cost` calls of the day, waiting up to maxWaitMs for them.
   * @throws RateLimitExceededError (Exceeded or Paused) with retryAt, when they will not be there in time
   */
  async acquire(
    key: string,
    cost: number,
    config: QuotaConfig,
    options: QuotaAcquireOptions,
  ): Promise<AcquireResult> {
    if (!(Number.isFinite(cost) && cost > 0)) throw new RangeError(`cost must be > 0, got ${cost}`);
    const startedAt = this.clock.now();
    const deadline = startedAt + Math.max(0, options.maxWaitMs ?? 0);
    for (let slept = false; ; slept = true) {
      const row = await this.withRow(key, config, (nextReset) =>
        this.db.query(ACQUIRE_SQL, [
          key,
          cost,
          config.limit,
          this.policy.pushReserveFraction,
          this.policy.syncShareFraction,
          this.policy.windowMs,
          nextReset,
          this.tau,
          options.priority === 'push',
        ]),
      );
      // Query time is not waiting: a grant on the first try reports 0, after sleeping the whole elapsed time.
      if (row['granted'] === true) return { waitedMs: slept ? this.clock.now() - startedAt : 0 };
      const now = numberColumn(row, 'now_ms');
      const decision = decide(windowOf(row), this.policy, options.priority, cost, now);
      // Refused by the statement but granted by the pure function only at the edge of a share's step.
      const retryAt = decision.granted ? now + 1 : decision.retryAt;
      const code =
        decision.granted || decision.reason === 'exhausted'
          ? RateLimiterErrorCode.Exceeded
          : RateLimiterErrorCode.Paused;
      const local = this.clock.now();
      const waitMs = Math.max(1, retryAt - now);
      if (local + waitMs > deadline) throw new RateLimitExceededError(code, key, new Date(local + waitMs));
      await this.clock.sleep(waitMs);
    }
  }

  /** Records what an answer's X-RateLimit-* headers say. */
  async observe(key: string, config: QuotaConfig, headers: QuotaHeaders): Promise<void> {
    if (headers.limit === null && headers.remaining === null && headers.resetAt === null) return;
    await this.withRow(key, config, (nextReset) =>
      this.db.query(OBSERVE_SQL, [key, headers.limit, headers.remaining, headers.resetAt, nextReset]),
    );
  }

  /** After a 429: no process calls until `until` (never shortens a pause). */
  async pauseUntil(key: string, config: QuotaConfig, until: Date): Promise<void> {
    await this.ensure(key, config);
    await this.db.query(PAUSE_SQL, [key, until.getTime()]);
  }

  /** An operator changed the daily limit: the plan follows at once, before any worker calls again. */
  async setLimit(key: string, limit: number): Promise<void> {
    if (!(Number.isFinite(limit) && limit > 0)) throw new RangeError(`limit must be > 0, got ${limit}`);
    await this.db.query(SET_LIMIT_SQL, [key, limit]);
  }

  /** Work that could not get budget: counted for operators until it gets budget (done) or stops coming. */
  async waiting(key: string, waiterId: string, kind: WaiterKind, until: Date): Promise<void> {
    await this.db.query(WAIT_SQL, [key, waiterId, kind, until.getTime()]);
  }

  async done(key: string, waiterId: string): Promise<void> {
    await this.doneAll(key, [waiterId]);
  }

  /** Several waiters of a key got budget: one statement. */
  async doneAll(key: string, waiterIds: string[]): Promise<void> {
    if (waiterIds.length > 0) await this.db.query(DONE_SQL, [key, waiterIds]);
  }

  /** Every customer system's calls today and its limit, in one read. */
  async usage(): Promise<QuotaUsage[]> {
    return rowsOf(await this.db.query(USAGE_SQL)).map((row) => ({
      key: textColumn(row, 'key'),
      used: numberColumn(row, 'used'),
      limit: numberColumn(row, 'lim'),
      resetAt: numberColumn(row, 'reset_at_ms'),
      paused: booleanColumn(row, 'paused'),
    }));
  }

  /** The plan as an operator sees it; a system not called yet shows a fresh window. */
  async snapshot(key: string, config: QuotaConfig): Promise<QuotaSnapshot> {
    const [row] = rowsOf(await this.db.query(READ_SQL, [key]));
    const now = row ? numberColumn(row, 'now_ms') : this.clock.now();
    const nextReset = nextConfiguredReset(now, config.resetMinuteUtc ?? 0);
    const window: QuotaWindow = row
      ? windowOf(row)
      : {
          configuredLimit: config.limit,
          atsLimit: null,
          used: 0,
          ourUsed: 0,
          pushReserveSpent: 0,
          syncShareSpent: 0,
          resetAt: nextReset,
          pausedUntil: null,
        };
    const rate = row
      ? decayedRate(numberColumn(row, 'rate'), now - numberColumn(row, 'updated_at_ms'), this.tau)
      : 0;
    const waiting: QuotaSnapshot['waiting'] = {
      message: { count: 0, until: null },
      run: { count: 0, until: null },
    };
    for (const waiter of rowsOf(await this.db.query(WAITERS_SQL, [key]))) {
      const kind = waiter['kind'] === 'run' ? 'run' : 'message';
      waiting[kind] = { count: numberColumn(waiter, 'n'), until: nullableNumberColumn(waiter, 'until_ms') };
    }
    return { key, ...planView(window, this.policy, rate, now, nextReset), waiting };
  }

  /** Runs a statement on the key's row, creating the row first when no process has used the key yet. */
  private async withRow(
    key: string,
    config: QuotaConfig,
    statement: (nextReset: number) => Promise<unknown>,
  ): Promise<SqlRow> {
    const nextReset = nextConfiguredReset(this.clock.now(), config.resetMinuteUtc ?? 0);
    let [row] = rowsOf(await statement(nextReset));
    if (!row) {
      await this.ensure(key, config);
      [row] = rowsOf(await statement(nextReset));
      if (!row) throw new Error(`quota row "${key}" vanished right after it was created`);
    }
    return row;
  }

  private async ensure(key: string, config: QuotaConfig): Promise<void> {
    const nextReset = nextConfiguredReset(this.clock.now(), config.resetMinuteUtc ?? 0);
    await this.db.query(ENSURE_SQL, [key, config.limit, nextReset]);
  }
}

function windowOf(row: SqlRow): QuotaWindow {
  return {
    configuredLimit: numberColumn(row, 'daily_limit'),
    atsLimit: nullableNumberColumn(row, 'ats_limit'),
    used: numberColumn(row, 'used'),
    ourUsed: numberColumn(row, 'our_used'),
    pushReserveSpent: numberColumn(row, 'push_spent'),
    syncShareSpent: numberColumn(row, 'sync_spent'),
    resetAt: numberColumn(row, 'reset_at_ms'),
    pausedUntil: nullableNumberColumn(row, 'paused_until_ms'),
  };
}
