import { AtsError, checkAtsUrlPolicy } from '@connector/ats-http';
import {
  type ClientCredentialsSetup,
  type ClientCredentialsSteps,
  type CredentialIssuerDeps,
  SetupError,
  type SetupInput,
  type VerifiedCredentials,
} from '@connector/ats-core';
import { AuthErrorCode } from '@connector/contracts';
import { AtsAConfigInputDto } from '../ats-a-connector.dto';
import { atsAQuota } from '../budget/ats-a-budget';
import { AtsACallsInFlight, atsABudgetHooks } from '../budget/ats-a-budget-hooks';
import { normalizeAtsABaseUrl } from '../client/ats-a-base-url';
import { ATS_A_TOKEN_CALLS_COUNT } from '../client/ats-a.protocol';
import { AtsAClient } from '../client/ats-a.client';
import { describeMissingAtsAStatuses, resolveAtsAStatuses } from '../client/ats-a-statuses';
import { requestAtsAToken } from '../client/ats-a-token';
import { DEFAULT_ATS_A_OPEN_STATUSES } from '../client/ats-a-vacancy';

/**
 * ATS-A's set-up steps (auth-gateway's client-credentials flow runs them): check the address, get a token,
 * make one cheap read (the vacancy statuses). The calls are counted on the account's daily quota of that
 * system like any call, so a tarpit or a spent quota costs only the account that tests it.
 */
class AtsASetupSteps implements ClientCredentialsSteps {
  private readonly calls = new AtsACallsInFlight();

  constructor(private readonly deps: Omit<CredentialIssuerDeps, 'settings'>) {}

  async verify(input: SetupInput): Promise<VerifiedCredentials> {
    const config = input.config as unknown as AtsAConfigInputDto;
    let baseUrl: string;
    try {
      baseUrl = normalizeAtsABaseUrl(config.baseUrl);
      // Said here in words an admin can act on; the calls below are guarded again at connect time.
      await checkAtsUrlPolicy(baseUrl, this.deps.guard.allowance);
    } catch (error) {
      throw new SetupError(AuthErrorCode.InvalidUrl, (error as Error).message);
    }
    const { guard } = this.deps;
    const budget = await this.budgetHooks(input.accountId, baseUrl);
    const timeoutMs = input.timeoutMs;
    const token = await requestAtsAToken(baseUrl, config.clientId, config.clientSecret, {
      timeoutMs,
      guard,
      ...(ATS_A_TOKEN_CALLS_COUNT ? { hooks: budget } : {}),
    });
    const client = new AtsAClient({
      baseUrl,
      token: async () => token.accessToken,
      timeoutMs,
      guard,
      hooks: budget,
    });
    const statuses = await client.getVacancyStatuses();
    const expiresAt = new Date(Date.now() + token.expiresInSeconds * 1000 - 60_000);
    return {
      baseUrl,
      clientId: config.clientId,
      secret: config.clientSecret,
      issued: {
        access: { accessToken: token.accessToken, accessTokenExpiresAt: expiresAt.toISOString() },
        expiresAt,
      },
      openStatuses: checkedStatuses(input.openStatuses, statuses),
    };
  }

  /** Where ATS-A's admins fix what it refused. */
  explain(error: unknown): SetupError | undefined {
    if (!(error instanceof AtsError)) return undefined;
    switch (error.kind) {
      case 'auth':
        return new SetupError(
          AuthErrorCode.AuthFailed,
          'The ATS refused the client ID or client secret. Copy both again from the API key you set up in ATS-A ' +
            '(Settings → API keys) and make sure the key is active.',
        );
      case 'forbidden':
        return new SetupError(
          AuthErrorCode.AuthFailed,
          'The API key works but may not read vacancies. Give it the vacancies.read scope in ATS-A.',
        );
      case 'not_found':
        return new SetupError(
          AuthErrorCode.InvalidUrl,
          'The address answers but is not an ATS-A API. Enter your system’s address without /api, e.g. https://acme.eploy.net.',
        );
      case 'unreachable':
      case 'transient':
      case 'rate_limited':
      case 'permanent':
        return undefined;
    }
  }

  /**
   * The test's calls on the account's daily quota of that system (the workers' key, as the ATS-A issuer's
   * token calls): no budget left answers RATE_LIMITED at once, and the answer's headers are recorded.
   */
  private async budgetHooks(accountId: string, baseUrl: string) {
    const { quota, logger } = this.deps;
    const connector = { id: 'connection-test', accountId, config: { baseUrl }, options: {} };
    const fresh = atsAQuota(connector);
    const { configuredLimit } = await quota.snapshot(fresh.key, fresh.config);
    const target = atsAQuota({ ...connector, options: { dailyCallLimit: configuredLimit } });
    return atsABudgetHooks({ quota, calls: this.calls, logger }, target, {
      priority: 'either',
      maxWaitMs: 0,
    });
  }
}

/** The open status names a connector may use with this ATS, or a SetupError naming the statuses it offers. */
function checkedStatuses(configured: string[] | undefined, dropdown: unknown[]): string[] {
  const names = configured && configured.length > 0 ? configured : [...DEFAULT_ATS_A_OPEN_STATUSES];
  const resolved = resolveAtsAStatuses(names, dropdown);
  const usable =
    configured && configured.length > 0 ? resolved.missing.length === 0 : resolved.ids.length > 0;
  if (!usable) {
    const missing = configured && configured.length > 0 ? resolved.missing : names;
    throw new SetupError(
      AuthErrorCode.UnknownStatuses,
      describeMissingAtsAStatuses(missing, resolved.offered),
    );
  }
  return names.filter((name) => !resolved.missing.includes(name));
}

/** ATS-A's part of the client-credentials set-up: the API key's three parts, the secret sealed on the way. */
export const atsAClientCredentials: ClientCredentialsSetup = {
  configClass: AtsAConfigInputDto,
  secretFields: ['clientSecret'],
  steps: (deps) => new AtsASetupSteps(deps),
};
