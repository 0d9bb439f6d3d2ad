import type { RowOf, SqlQueryable } from '@connector/persistence';
import { RateLimiterErrorCode, RateLimitExceededError } from '../rate-limiter.errors';
import { systemClock, type AcquireResult, type Clock } from '../rate-limiter';
import {
  ACQUIRE_QUOTA,
  DONE_WAITING,
  ENSURE_QUOTA,
  OBSERVE_HEADERS,
  PAUSE_QUOTA,
  QUOTA_WINDOW_ROW,
  QUOTA_USAGE,
  READ_QUOTA,
  SET_QUOTA_LIMIT,
  WAIT,
  WAITERS,
} from './daily-quota.sql';
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
        ACQUIRE_QUOTA.rows(this.db, {
          key,
          cost,
          limit: config.limit,
          pushReserveFraction: this.policy.pushReserveFraction,
          syncShareFraction: this.policy.syncShareFraction,
          windowMs: this.policy.windowMs,
          nextReset,
          rateTauSeconds: this.tau,
          push: options.priority === 'push',
        }),
      );
      // Query time is not waiting: a grant on the first try reports 0, after sleeping the whole elapsed time.
      if (row.granted) return { waitedMs: slept ? this.clock.now() - startedAt : 0 };
      const now = row.now_ms;
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
      OBSERVE_HEADERS.rows(this.db, { key, ...headers, nextReset }),
    );
  }

  /** After a 429: no process calls until `until` (never shortens a pause). */
  async pauseUntil(key: string, config: QuotaConfig, until: Date): Promise<void> {
    await this.ensure(key, config);
    await PAUSE_QUOTA.rows(this.db, { key, untilMs: until.getTime() });
  }

  /** An operator changed the daily limit: the plan follows at once, before any worker calls again. */
  async setLimit(key: string, limit: number): Promise<void> {
    if (!(Number.isFinite(limit) && limit > 0)) throw new RangeError(`limit must be > 0, got ${limit}`);
    await SET_QUOTA_LIMIT.rows(this.db, { key, limit });
  }

  /** Work that could not get budget: counted for operators until it gets budget (done) or stops coming. */
  async waiting(key: string, waiterId: string, kind: WaiterKind, until: Date): Promise<void> {
    await WAIT.rows(this.db, { key, waiterId, kind, untilMs: until.getTime() });
  }

  async done(key: string, waiterId: string): Promise<void> {
    await this.doneAll(key, [waiterId]);
  }

  /** Several waiters of a key got budget: one statement. */
  async doneAll(key: string, waiterIds: string[]): Promise<void> {
    if (waiterIds.length > 0) await DONE_WAITING.rows(this.db, { key, waiterIds });
  }

  /** Every customer system's calls today and its limit, in one read. */
  async usage(): Promise<QuotaUsage[]> {
    return (await QUOTA_USAGE.rows(this.db, {})).map((row) => ({
      key: row.key,
      used: row.used,
      limit: row.lim,
      resetAt: row.reset_at_ms,
      paused: row.paused,
    }));
  }

  /** The plan as an operator sees it; a system not called yet shows a fresh window. */
  async snapshot(key: string, config: QuotaConfig): Promise<QuotaSnapshot> {
    const [row] = await READ_QUOTA.rows(this.db, { key });
    const now = row ? row.now_ms : this.clock.now();
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
    const rate = row ? decayedRate(row.rate, now - row.updated_at_ms, this.tau) : 0;
    const waiting: QuotaSnapshot['waiting'] = {
      message: { count: 0, until: null },
      run: { count: 0, until: null },
    };
    for (const waiter of await WAITERS.rows(this.db, { key })) {
      const kind = waiter.kind === 'run' ? 'run' : 'message';
      waiting[kind] = { count: waiter.n, until: waiter.until_ms };
    }
    return { key, ...planView(window, this.policy, rate, now, nextReset), waiting };
  }

  /** Runs a statement on the key's row, creating the row first when no process has used the key yet. */
  private async withRow<R>(
    key: string,
    config: QuotaConfig,
    statement: (nextReset: number) => Promise<R[]>,
  ): Promise<R> {
    const nextReset = nextConfiguredReset(this.clock.now(), config.resetMinuteUtc ?? 0);
    let [row] = await statement(nextReset);
    if (!row) {
      await this.ensure(key, config);
      [row] = await statement(nextReset);
      if (!row) throw new Error(`quota row "${key}" vanished right after it was created`);
    }
    return row;
  }

  private async ensure(key: string, config: QuotaConfig): Promise<void> {
    const nextReset = nextConfiguredReset(this.clock.now(), config.resetMinuteUtc ?? 0);
    await ENSURE_QUOTA.rows(this.db, { key, limit: config.limit, nextReset });
  }
}

function windowOf(row: RowOf<typeof QUOTA_WINDOW_ROW>): QuotaWindow {
  return {
    configuredLimit: row.daily_limit,
    atsLimit: row.ats_limit,
    used: row.used,
    ourUsed: row.our_used,
    pushReserveSpent: row.push_spent,
    syncShareSpent: row.sync_spent,
    resetAt: row.reset_at_ms,
    pausedUntil: row.paused_until_ms,
  };
}
