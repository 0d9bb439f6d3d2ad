import { Inject, Injectable } from '@nestjs/common';
import { AtsAClient, AtsBClient, retryAtOf } from '@connector/ats-clients';
import { type ConnectorSnapshot, credentialFingerprint } from '@connector/contracts';
import type { BucketConfig, RateLimiter } from '@connector/rate-limiter';
import { AtsAccessProvider } from './ats-access.provider';
import { atsABudget, atsBBudget } from './ats-budget';

export const RATE_LIMITER = Symbol('RATE_LIMITER');

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
}

/**
 * Builds ATS clients for a connector, wired to auth-gateway for tokens and sessions and to the shared
 * rate limiter: every call takes a token from the connector's budget first, and a 429 pauses that budget
 * for every worker until the ATS's reset.
 */
@Injectable()
export class AtsClientFactory {
  constructor(
    private readonly access: AtsAccessProvider,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
  ) {}

  atsA(connector: ConnectorSnapshot, options: ClientOptions): AtsAClient {
    const budget = atsABudget(connector);
    return new AtsAClient({
      // No baseUrl from the connector's config: the address comes with the access, from auth-gateway,
      // which verified it (URL policy) when the credentials were saved. One copy, never two that disagree.
      token: async ({ rejected }) => {
        const access = await this.access.access(
          connector.id,
          connector.accountId,
          rejected ? credentialFingerprint(rejected) : undefined,
        );
        if (access.type !== 'ats-a') throw new Error(`connector ${connector.id} is not an ATS-A connector`);
        return { accessToken: access.accessToken, baseUrl: access.baseUrl };
      },
      hooks: this.hooks(budget, options),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
  }

  atsB(connector: ConnectorSnapshot, options: ClientOptions): AtsBClient {
    const budget = atsBBudget(connector);
    return new AtsBClient({
      session: async ({ rejected }) => {
        const access = await this.access.access(
          connector.id,
          connector.accountId,
          rejected ? credentialFingerprint(rejected) : undefined,
        );
        if (access.type !== 'ats-b') throw new Error(`connector ${connector.id} is not an ATS-B connector`);
        return { bhRestToken: access.bhRestToken, restUrl: access.restUrl };
      },
      hooks: this.hooks(budget, options),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
  }

  private hooks(budget: { key: string; bucket: BucketConfig }, options: ClientOptions) {
    this.limiter.configure(budget.key, budget.bucket);
    return {
      beforeCall: async () => {
        await this.limiter.acquire(budget.key, 1, {
          priority: options.priority === 'push' ? 'high' : 'normal',
          maxWaitMs: options.maxWaitMs ?? 0,
        });
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
