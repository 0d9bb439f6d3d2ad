import type {
  CredentialInput,
  CredentialIssuer,
  CredentialIssuerDeps,
  IssuedAccess,
  StoredAccess,
} from '@connector/ats-core';
import { type AtsAccess, credentialFingerprint } from '@connector/contracts';
import { AtsError, type AtsCallHooks, type OutboundGuard } from '@connector/ats-http';
import type { PostgresDailyQuota } from '@connector/rate-limiter';
import { atsABudgetHooks, AtsACallsInFlight } from '../budget/ats-a-budget-hooks';
import { atsAQuota } from '../budget/ats-a-budget';
import { ATS_A_TOKEN_CALLS_COUNT } from '../client/ats-a.protocol';
import { requestAtsAToken } from '../client/ats-a-token';

/** Stop handing out an ATS-A token this long before the ATS says it expires, or a quarter of a short life. */
const TOKEN_MARGIN_MS = 60_000;

/** ATS-A: OAuth 2.0 client credentials. No refresh token: a new token is asked for with the secret. */
export class AtsACredentialIssuer implements CredentialIssuer {
  readonly atsType = 'ats-a';
  private readonly calls = new AtsACallsInFlight();

  constructor(
    private readonly guard: OutboundGuard,
    /** The daily quota the gateway's token requests take from (the workers' table, one row per account and system). */
    private readonly quota: PostgresDailyQuota,
    private readonly logger: CredentialIssuerDeps['logger'] = { warn: () => undefined },
  ) {}

  async renew(input: CredentialInput): Promise<IssuedAccess> {
    if (!input.baseUrl || !input.clientId)
      throw new Error(`connector ${input.connectorId} has no ATS-A address`);
    const budget = ATS_A_TOKEN_CALLS_COUNT ? await this.budgetHooks(input, input.baseUrl) : undefined;
    const token = await requestAtsAToken(input.baseUrl, input.clientId, input.secret, {
      timeoutMs: 15_000,
      guard: this.guard,
      ...(budget ? { hooks: budget.hooks } : {}),
    }).catch(async (error: unknown) => {
      // The pause is written before the worker hears of it, so it finds the reset in the shared plan.
      if (error instanceof AtsError && error.kind === 'rate_limited' && error.retryAt && budget) {
        const { key, config } = budget.target;
        await this.quota.pauseUntil(key, config, error.retryAt).catch(() => undefined);
      }
      throw error;
    });
    const lifetimeMs = token.expiresInSeconds * 1000;
    const expiresAt = new Date(Date.now() + lifetimeMs - Math.min(TOKEN_MARGIN_MS, lifetimeMs / 4));
    return {
      access: { accessToken: token.accessToken, accessTokenExpiresAt: expiresAt.toISOString() },
      expiresAt,
    };
  }

  /**
   * A token request is a call like any other (ats-a.md): planned on the customer system's quota, its answer's
   * headers recorded, a 429 pausing the system until the reset it names. Either side's budget serves it.
   */
  private async budgetHooks(
    input: Pick<CredentialInput, 'connectorId' | 'accountId'>,
    baseUrl: string,
  ): Promise<{ hooks: AtsCallHooks; target: ReturnType<typeof atsAQuota> }> {
    // The workers' key for this connector (its account's plan on that address), never one of its own.
    const connector = { id: input.connectorId, accountId: input.accountId, config: { baseUrl }, options: {} };
    const fresh = atsAQuota(connector);
    // The limit the workers plan with (the connector's dailyCallLimit), as their last call left it in the row.
    const { configuredLimit } = await this.quota.snapshot(fresh.key, fresh.config);
    const target = atsAQuota({ ...connector, options: { dailyCallLimit: configuredLimit } });
    const hooks = atsABudgetHooks({ quota: this.quota, calls: this.calls, logger: this.logger }, target, {
      priority: 'either',
      maxWaitMs: 0,
    });
    return { hooks, target };
  }

  /** An ATS-A token is good until its expiry; there is nothing to extend. */
  async revalidate(): Promise<Date | undefined> {
    return undefined;
  }

  toAtsAccess(input: { baseUrl: string | null }, access: StoredAccess, expiresAt: Date): AtsAccess {
    return {
      type: 'ats-a',
      baseUrl: input.baseUrl ?? '',
      accessToken: access.accessToken,
      expiresAt: expiresAt.toISOString(),
    };
  }

  fingerprintOf(access: StoredAccess): string {
    return credentialFingerprint(access.accessToken);
  }
}

/** The adapter's `credentialIssuer`: auth-gateway builds it with its guard, its quota table and its logger. */
export const atsACredentialIssuer = (deps: CredentialIssuerDeps): AtsACredentialIssuer =>
  new AtsACredentialIssuer(deps.guard, deps.quota, deps.logger);
