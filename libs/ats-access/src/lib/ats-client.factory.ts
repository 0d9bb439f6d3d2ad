import { Inject, Injectable, Logger } from '@nestjs/common';
import { OutboundGuard, retryAtOf } from '@connector/ats-clients';
import { AtsAClient } from '@connector/ats-a';
import { AtsBClient } from '@connector/ats-b';
import { AuthErrorCode, type ConnectorSnapshot, credentialFingerprint } from '@connector/contracts';
import { RpcError } from '@connector/messaging';
import {
  type BucketConfig,
  PostgresDailyQuota,
  type QuotaConfig,
  type RateLimiter,
  RateLimiterErrorCode,
  RateLimitExceededError,
  type WaiterKind,
} from '@connector/rate-limiter';
import { AtsACallsInFlight, atsAAccessOf, atsABudgetHooks, atsAQuota, atsBBudget } from '@connector/ats-a';
import { atsBAccessOf } from '@connector/ats-b';
import { atsRegistry } from '@connector/ats-registry';
import { AtsAccessProvider } from './ats-access.provider';
import { meteredAcquire } from '@connector/ats-core';

export const RATE_LIMITER = Symbol('RATE_LIMITER');
export const DAILY_QUOTA = Symbol('DAILY_QUOTA');
/** A token refused for budget while the shared plan already has some again: ask again this soon. */
const TOKEN_RETRY_FALLBACK_MS = 5_000;

/** Pushes (candidates, applications, documents) may use the reserve; syncs may not. */
export type CallPriority = 'push' | 'sync';

export interface ClientOptions {
  priority: CallPriority;
  /** How long a call may wait for the budget before failing with RateLimitExceededError. */
  maxWaitMs?: number;
  /** Told about every answered call (to count a run's API calls). */
  onCall?: (endpoint: string, status: number) => void;
  /** Per ATS request (default the client's 30 s); shorter in tests of timeouts. */
  timeoutMs?: number;
  /** The work these calls are for (a message id, `run:<id>`): counted as waiting while it has no budget. */
  waiter?: { id: string; kind: WaiterKind };
}

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
 * Builds ATS clients for a connector, wired to auth-gateway for tokens and sessions and to the budgets:
 * ATS-A calls take from the customer system's daily quota (the planner, which also reads every answer's
 * X-RateLimit-* headers), ATS-B calls from its per-minute token bucket; a 429 pauses the budget for every
 * worker until the ATS's reset.
 */
@Injectable()
export class AtsClientFactory {
  private readonly logger = new Logger(AtsClientFactory.name);
  private readonly callsInFlight = new AtsACallsInFlight();

  constructor(
    private readonly access: AtsAccessProvider,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(DAILY_QUOTA) private readonly quota: PostgresDailyQuota,
    /** Every call's addresses are checked again here, whatever auth-gateway checked at set-up. */
    private readonly guard: OutboundGuard,
  ) {}

  atsA(connector: ConnectorSnapshot, options: ClientOptions): AtsAClient {
    const { key, config } = atsAQuota(connector);
    const { waiter } = options;
    return new AtsAClient({
      guard: this.guard,
      // No baseUrl from the connector's config: the address comes with the access, from auth-gateway,
      // which verified it (URL policy) when the credentials were saved. One copy, never two that disagree.
      token: async ({ rejected }) => {
        const access = await this.access
          .access(connector.id, connector.accountId, rejected ? credentialFingerprint(rejected) : undefined)
          .catch(async (error: unknown) => {
            if (!(error instanceof RpcError && error.code === AuthErrorCode.RateLimited)) throw error;
            throw await this.tokenWait(key, config, waiter);
          });
        const { accessToken, baseUrl } = atsAAccessOf(access);
        return { accessToken, baseUrl };
      },
      hooks: atsABudgetHooks(
        { quota: this.quota, calls: this.callsInFlight, logger: this.logger },
        { key, config },
        {
          priority: options.priority,
          maxWaitMs: options.maxWaitMs ?? 0,
          ...(waiter ? { waiter } : {}),
          ...(options.onCall ? { onCall: options.onCall } : {}),
        },
      ),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
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
    if (!atsRegistry.supports(connector.type, 'daily-budget')) return undefined;
    const { key, config } = atsAQuota(connector);
    const plan = await this.quota.snapshot(key, config);
    const paused = plan.pausedUntil !== null;
    if (!paused && plan.remaining - plan.syncShare >= 1) return undefined;
    return new Date(plan.pausedUntil ?? plan.resumesAt ?? plan.resetAt);
  }

  atsB(connector: ConnectorSnapshot, options: ClientOptions): AtsBClient {
    const budget = atsBBudget(connector);
    return new AtsBClient({
      guard: this.guard,
      session: async ({ rejected }) => {
        const access = await this.access.access(
          connector.id,
          connector.accountId,
          rejected ? credentialFingerprint(rejected) : undefined,
        );
        const { bhRestToken, restUrl } = atsBAccessOf(access);
        return { bhRestToken, restUrl };
      },
      hooks: this.bucketHooks(budget, options),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
  }

  private bucketHooks(budget: { key: string; bucket: BucketConfig }, options: ClientOptions) {
    this.limiter.configure(budget.key, budget.bucket);
    return {
      beforeCall: async () => {
        await meteredAcquire('ats-b', options.priority, () =>
          this.limiter.acquire(budget.key, 1, {
            priority: options.priority === 'push' ? 'high' : 'normal',
            maxWaitMs: options.maxWaitMs ?? 0,
          }),
        );
      },
      afterCall: ({ endpoint, status, headers }: { endpoint: string; status: number; headers: Headers }) => {
        options.onCall?.(endpoint, status);
        if (status === 429) {
          void this.limiter
            .pauseUntil(budget.key, retryAtOf(headers, new Date(), 60_000))
            .catch(() => undefined);
        }
      },
    };
  }
}
