import { type AtsCallHooks, type OutboundGuard, retryAtOf } from '@connector/ats-http';
import type { AtsAccess, ConnectorSnapshot } from '@connector/contracts';
import type {
  BucketConfig,
  PostgresDailyQuota,
  QuotaConfig,
  RateLimiter,
  WaiterKind,
} from '@connector/rate-limiter';
import { meteredAcquire } from './budget-metrics';

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
  /** The largest answer read (default AtsHttp's 8 MiB): a larger one fails as `answer_too_large`. */
  maxResponseBytes?: number;
  /** The work these calls are for (a message id, `run:<id>`): counted as waiting while it has no budget. */
  waiter?: { id: string; kind: WaiterKind };
}

/** The connector fields an ATS's budget is keyed and sized by. */
export type BudgetConnector = Pick<ConnectorSnapshot, 'id' | 'accountId' | 'config' | 'options'>;

/**
 * What a connector's calls take budget from: the customer system's daily quota (the planner in
 * @connector/rate-limiter, shared by every worker), or a token bucket per connector. `key` names it in the
 * shared tables.
 */
export type AtsBudget =
  | { kind: 'daily-quota'; key: string; config: QuotaConfig }
  | { kind: 'token-bucket'; key: string; bucket: BucketConfig };

/** What a process gives an adapter to build its clients with: the shared budgets and the SSRF guard. */
export interface AtsClientDeps {
  /** Every call's addresses are checked again here, whatever auth-gateway checked at set-up. */
  readonly guard: OutboundGuard;
  readonly limiter: RateLimiter;
  readonly quota: PostgresDailyQuota;
  readonly logger: { warn(message: string): void };
}

/** One client asked for: the connector, the caller's options, and where its access comes from. */
export interface AtsClientRequest {
  readonly connector: ConnectorSnapshot;
  readonly options: ClientOptions;
  /**
   * The connector's access from auth-gateway (`credentials.requested`); `rejected`: the token the ATS just
   * refused, for a new one. A refusal for lack of budget waits as the connector's budget says.
   */
  access(rejected?: string): Promise<AtsAccess>;
}

/** Builds one connector's client; made once per process (`makeClients`), so it may keep state (calls in flight). */
export type AtsClientMaker<C> = (request: AtsClientRequest) => C;

/** The client an adapter makes (`AtsClientFactory.client(adapter, …)` answers this type). */
export type AtsClientOf<A> = A extends { makeClients(deps: AtsClientDeps): AtsClientMaker<infer C> }
  ? C
  : never;

/**
 * A token bucket's hooks: one token before each call (pushes may use the reserve), a 429 pauses the bucket
 * for every worker until the ATS's reset. `ats` labels the budget metrics.
 */
export function tokenBucketHooks(
  limiter: RateLimiter,
  ats: string,
  budget: { key: string; bucket: BucketConfig },
  options: ClientOptions,
): AtsCallHooks {
  limiter.configure(budget.key, budget.bucket);
  return {
    beforeCall: async () => {
      await meteredAcquire(ats, options.priority, () =>
        limiter.acquire(budget.key, 1, {
          priority: options.priority === 'push' ? 'high' : 'normal',
          maxWaitMs: options.maxWaitMs ?? 0,
        }),
      );
    },
    afterCall: ({ endpoint, status, headers }) => {
      options.onCall?.(endpoint, status);
      if (status === 429) {
        void limiter.pauseUntil(budget.key, retryAtOf(headers, new Date(), 60_000)).catch(() => undefined);
      }
    },
  };
}
