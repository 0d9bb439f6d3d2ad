import { Inject, Injectable, Logger } from '@nestjs/common';
import { OutboundGuard } from '@connector/ats-http';
import {
  type AtsAdapter,
  type AtsClientDeps,
  type AtsClientMaker,
  type AtsClientOf,
  AtsRegistry,
  type ClientOptions,
  MissingAtsPartError,
} from '@connector/ats-core';
import {
  type AtsAccess,
  AuthErrorCode,
  type ConnectorSnapshot,
  credentialFingerprint,
} from '@connector/contracts';
import { RpcError } from '@connector/messaging';
import {
  PostgresDailyQuota,
  type QuotaConfig,
  type RateLimiter,
  RateLimiterErrorCode,
  RateLimitExceededError,
} from '@connector/rate-limiter';
import { AtsAccessProvider } from './ats-access.provider';

export type { CallPriority, ClientOptions } from '@connector/ats-core';

export const RATE_LIMITER = Symbol('RATE_LIMITER');
export const DAILY_QUOTA = Symbol('DAILY_QUOTA');
/** A token refused for budget while the shared plan already has some again: ask again this soon. */
const TOKEN_RETRY_FALLBACK_MS = 5_000;

/** What a push for one message asks of its clients: the reserve, the service's waits, the message as waiter. */
export function pushClientOptions(
  config: { BUDGET_WAIT_MS: number; ATS_TIMEOUT_MS: number },
  messageId?: string,
): ClientOptions {
  return {
    priority: 'push',
    maxWaitMs: config.BUDGET_WAIT_MS,
    timeoutMs: config.ATS_TIMEOUT_MS,
    ...(messageId ? { waiter: { id: messageId, kind: 'message' } } : {}),
  };
}

/**
 * Builds ATS clients for a connector, wired to auth-gateway for tokens and sessions and to the shared
 * budgets: which client, and which budget its calls take from (a daily quota, a token bucket), is the
 * adapter's (`makeClients`, `budget`), looked up in the registry. No ATS is named here.
 */
@Injectable()
export class AtsClientFactory {
  private readonly logger = new Logger(AtsClientFactory.name);
  private readonly deps: AtsClientDeps;
  /** Each adapter's client maker, made once: it may keep state for the process (ATS-A's calls in flight). */
  private readonly makers = new Map<AtsAdapter, AtsClientMaker<unknown>>();

  constructor(
    private readonly registry: AtsRegistry,
    private readonly access: AtsAccessProvider,
    @Inject(RATE_LIMITER) limiter: RateLimiter,
    @Inject(DAILY_QUOTA) private readonly quota: PostgresDailyQuota,
    /** Every call's addresses are checked again here, whatever auth-gateway checked at set-up. */
    guard: OutboundGuard,
  ) {
    this.deps = { guard, limiter, quota, logger: this.logger };
  }

  /** The connector's client as `adapter` makes it, typed: `clients.client(atsAAdapter, connector, options)`. */
  client<A extends AtsAdapter & Required<Pick<AtsAdapter, 'makeClients'>>>(
    adapter: A,
    connector: ConnectorSnapshot,
    options: ClientOptions,
  ): AtsClientOf<A> {
    return this.make(adapter, connector, options) as AtsClientOf<A>;
  }

  /** The client of the connector's ATS, whichever it is (the registry's adapter for its type). */
  for(connector: ConnectorSnapshot, options: ClientOptions): unknown {
    return this.make(this.registry.get(connector.type), connector, options);
  }

  private make(adapter: AtsAdapter, connector: ConnectorSnapshot, options: ClientOptions): unknown {
    let maker = this.makers.get(adapter);
    if (!maker) {
      if (!adapter.makeClients) throw new MissingAtsPartError(adapter.type, 'client (makeClients)');
      maker = adapter.makeClients(this.deps);
      this.makers.set(adapter, maker);
    }
    return maker({
      connector,
      options,
      access: (rejected) => this.accessOf(adapter, connector, options, rejected),
    });
  }

  /** The connector's access; a token refused for budget waits as the connector's daily quota says. */
  private async accessOf(
    adapter: AtsAdapter,
    connector: ConnectorSnapshot,
    options: ClientOptions,
    rejected: string | undefined,
  ): Promise<AtsAccess> {
    try {
      return await this.access.access(
        connector.id,
        connector.accountId,
        rejected ? credentialFingerprint(rejected) : undefined,
      );
    } catch (error) {
      if (!(error instanceof RpcError && error.code === AuthErrorCode.RateLimited)) throw error;
      const budget = adapter.budget?.(connector);
      if (budget?.kind !== 'daily-quota') throw error;
      throw await this.tokenWait(budget.key, budget.config, options.waiter);
    }
  }

  /**
   * auth-gateway could not get a token for lack of budget (the plan said no, or the token endpoint answered
   * 429 and the gateway paused the customer system): the work waits like any call without budget, until
   * the pause or the plan's next grant, as the shared quota says.
   */
  private async tokenWait(
    key: string,
    config: QuotaConfig,
    waiter: ClientOptions['waiter'],
  ): Promise<RateLimitExceededError> {
    const plan = await this.quota.snapshot(key, config);
    const paused = plan.pausedUntil !== null;
    const until = new Date(plan.pausedUntil ?? plan.resumesAt ?? Date.now() + TOKEN_RETRY_FALLBACK_MS);
    if (waiter) await this.quota.waiting(key, waiter.id, waiter.kind, until).catch(() => undefined);
    return new RateLimitExceededError(
      paused ? RateLimiterErrorCode.Paused : RateLimiterErrorCode.Exceeded,
      key,
      until,
    );
  }

  /**
   * When pushes to this connector get budget again, or undefined when they have it now. Work that waits for
   * something a push still has to do (an application for a candidate whose create is waiting for budget)
   * waits for the budget too, instead of using up its attempts.
   */
  async pushBudgetWait(connector: ConnectorSnapshot): Promise<Date | undefined> {
    if (!this.registry.supports(connector.type, 'daily-budget')) return undefined;
    const budget = this.registry.get(connector.type).budget?.(connector);
    if (budget?.kind !== 'daily-quota') return undefined;
    const { key, config } = budget;
    const plan = await this.quota.snapshot(key, config);
    const paused = plan.pausedUntil !== null;
    if (!paused && plan.remaining - plan.syncShare >= 1) return undefined;
    return new Date(plan.pausedUntil ?? plan.resumesAt ?? plan.resetAt);
  }
}
