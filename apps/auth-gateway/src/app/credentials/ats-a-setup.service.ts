import { Inject, Injectable, Logger } from '@nestjs/common';
import { type AtsAConfigDto, AuthErrorCode, type ConnectionTestReply } from '@connector/contracts';
import { AtsError, checkAtsUrlPolicy, OutboundGuard, UrlPolicyError } from '@connector/ats-clients';
import {
  AtsACallsInFlight,
  AtsAClient,
  ATS_A_TOKEN_CALLS_COUNT,
  atsABudgetHooks,
  atsAQuota,
  DEFAULT_ATS_A_OPEN_STATUSES,
  describeMissingAtsAStatuses,
  resolveAtsAStatuses,
  normalizeAtsABaseUrl,
  requestAtsAToken,
} from '@connector/ats-a';
import { type PostgresDailyQuota, type RateLimiter, RateLimitExceededError } from '@connector/rate-limiter';
import { AuthGatewayConfig } from '../auth-gateway.config';
import { AtsCallSlots } from './ats-call-slots';
import { CONNECTION_TEST_LIMITER, TOKEN_QUOTA } from './credential-issuer';
import { GatewayError } from './gateway.error';

/**
 * The ATS-A set-up: check the address, get a token, make one cheap read. Every failure is said in words
 * an admin can act on, and the whole test ends within CONNECTION_TEST_TIMEOUT_MS. Tests have their own
 * slots (per account and in all, apart from renewals), a rate limit per account across replicas, and their
 * calls are counted on the account's daily quota of that system like any call: a tarpit or a spent quota
 * costs only the account that tests it.
 */
@Injectable()
export class AtsASetupService {
  private readonly logger = new Logger(AtsASetupService.name);
  private readonly slots: AtsCallSlots;
  private readonly calls = new AtsACallsInFlight();

  constructor(
    @Inject(AuthGatewayConfig) private readonly config: AuthGatewayConfig,
    private readonly guard: OutboundGuard,
    @Inject(TOKEN_QUOTA) private readonly quota: PostgresDailyQuota,
    @Inject(CONNECTION_TEST_LIMITER) private readonly limiter: RateLimiter,
  ) {
    this.slots = new AtsCallSlots('connection tests', {
      total: config.CONNECTION_TESTS_MAX,
      perKey: config.CONNECTION_TESTS_PER_ACCOUNT,
      retryAfterMs: 2_000,
    });
  }

  /** The admin's "Test connection": at most CONNECTION_TESTS_PER_MINUTE per account, in its own slots. */
  async test(
    accountId: string,
    config: AtsAConfigDto,
    openStatuses?: string[],
  ): Promise<ConnectionTestReply> {
    try {
      await this.limiter
        .acquire(`connection-test:${accountId}`, 1, { maxWaitMs: 0 })
        .catch((error: unknown) => {
          if (!(error instanceof RateLimitExceededError)) throw error;
          const seconds = Math.max(1, Math.ceil((error.retryAt.getTime() - Date.now()) / 1000));
          throw new GatewayError(
            AuthErrorCode.RateLimited,
            `Too many connection tests from this account (at most ${this.config.CONNECTION_TESTS_PER_MINUTE} a ` +
              `minute). Try again in ${seconds} s.`,
            seconds * 1000,
          );
        });
      await this.verify(accountId, config, openStatuses);
      return { ok: true };
    } catch (error) {
      const failure = error instanceof GatewayError ? error : this.explain(error);
      return { ok: false, error: { code: failure.code, message: failure.message } };
    }
  }

  /**
   * Returns the normalised address, a working token and the open statuses checked against the ATS's list, or
   * throws a GatewayError that explains. Configured names must all be offered; without any, at least one of
   * the defaults must be, and those offered are the ones kept.
   */
  async verify(
    accountId: string,
    config: AtsAConfigDto,
    openStatuses?: string[],
    /** How long it may wait behind the account's own other tests (a save waits; a test answers BUSY at once). */
    waitMs = 0,
  ): Promise<{ baseUrl: string; accessToken: string; expiresInSeconds: number; openStatuses: string[] }> {
    return this.slots
      .run(accountId, () => this.verifyInSlot(accountId, config, openStatuses), waitMs)
      .catch((error: unknown) => {
        if (error instanceof GatewayError && error.code === AuthErrorCode.Busy) {
          // Said to an admin: plain words, the refusal's wait kept for the transport.
          throw new GatewayError(
            AuthErrorCode.Busy,
            'Too many connection tests are running right now. Wait a few seconds and test again.',
            error.retryAfterMs,
          );
        }
        throw error;
      });
  }

  private async verifyInSlot(
    accountId: string,
    config: AtsAConfigDto,
    openStatuses?: string[],
  ): Promise<{ baseUrl: string; accessToken: string; expiresInSeconds: number; openStatuses: string[] }> {
    const timeoutMs = this.config.CONNECTION_TEST_TIMEOUT_MS;
    const deadline = AbortSignal.timeout(timeoutMs);
    const work = async () => {
      let baseUrl: string;
      try {
        baseUrl = normalizeAtsABaseUrl(config.baseUrl);
        // Said here in words an admin can act on; the calls below are guarded again at connect time.
        await checkAtsUrlPolicy(baseUrl, this.guard.allowance);
      } catch (error) {
        throw new GatewayError(AuthErrorCode.InvalidUrl, (error as Error).message);
      }
      try {
        const { guard } = this;
        const budget = await this.budgetHooks(accountId, baseUrl);
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
        return {
          baseUrl,
          accessToken: token.accessToken,
          expiresInSeconds: token.expiresInSeconds,
          openStatuses: checkedStatuses(openStatuses, statuses),
        };
      } catch (error) {
        throw this.explain(error);
      }
    };
    const timedOut = new Promise<never>((_, reject) =>
      deadline.addEventListener('abort', () =>
        reject(
          new GatewayError(
            AuthErrorCode.Unreachable,
            `The ATS at ${config.baseUrl} did not answer within ${timeoutMs / 1000} s. Check the address and that the system is up.`,
          ),
        ),
      ),
    );
    return Promise.race([work(), timedOut]);
  }

  /**
   * The test's calls on the account's daily quota of that system (the workers' key, as the ATS-A issuer's
   * token calls): no budget left answers RATE_LIMITED at once, and the answer's headers are recorded.
   */
  private async budgetHooks(accountId: string, baseUrl: string) {
    const connector = { id: 'connection-test', accountId, config: { baseUrl }, options: {} };
    const fresh = atsAQuota(connector);
    const { configuredLimit } = await this.quota.snapshot(fresh.key, fresh.config);
    const target = atsAQuota({ ...connector, options: { dailyCallLimit: configuredLimit } });
    return atsABudgetHooks({ quota: this.quota, calls: this.calls, logger: this.logger }, target, {
      priority: 'either',
      maxWaitMs: 0,
    });
  }

  private explain(error: unknown): GatewayError {
    if (error instanceof GatewayError) return error;
    if (error instanceof RateLimitExceededError) {
      return new GatewayError(
        AuthErrorCode.RateLimited,
        `This account has no ATS calls left for this system until ${error.retryAt.toISOString()} ` +
          '(its daily quota). Test again after that.',
      );
    }
    if (error instanceof UrlPolicyError) return new GatewayError(AuthErrorCode.InvalidUrl, error.message);
    // Refused at connect time: the host's address changed to one the connector may not call.
    if (error instanceof AtsError && error.code === 'blocked_address') {
      return new GatewayError(AuthErrorCode.InvalidUrl, error.message);
    }
    if (error instanceof AtsError) {
      switch (error.kind) {
        case 'auth':
          return new GatewayError(
            AuthErrorCode.AuthFailed,
            'The ATS refused the client ID or client secret. Copy both again from the API key you set up in ATS-A ' +
              '(Settings → API keys) and make sure the key is active.',
          );
        case 'forbidden':
          return new GatewayError(
            AuthErrorCode.AuthFailed,
            'The API key works but may not read vacancies. Give it the vacancies.read scope in ATS-A.',
          );
        case 'unreachable':
        case 'transient':
          return new GatewayError(AuthErrorCode.Unreachable, `Could not reach the ATS: ${error.message}`);
        case 'not_found':
          return new GatewayError(
            AuthErrorCode.InvalidUrl,
            'The address answers but is not an ATS-A API. Enter your system’s address without /api, e.g. https://acme.eploy.net.',
          );
        case 'rate_limited':
        case 'permanent':
          // The admin's own test of their credentials: the ATS's words help, and name no candidate.
          return new GatewayError(
            AuthErrorCode.AtsError,
            `The ATS answered with an error: ${error.message}${error.atsMessage ? `: ${error.atsMessage}` : ''}`,
          );
      }
    }
    return new GatewayError(AuthErrorCode.AtsError, (error as Error).message ?? String(error));
  }
}

/** The open status names a connector may use with this ATS, or a GatewayError naming the statuses it offers. */
function checkedStatuses(configured: string[] | undefined, dropdown: unknown[]): string[] {
  const names = configured && configured.length > 0 ? configured : [...DEFAULT_ATS_A_OPEN_STATUSES];
  const resolved = resolveAtsAStatuses(names, dropdown);
  const usable =
    configured && configured.length > 0 ? resolved.missing.length === 0 : resolved.ids.length > 0;
  if (!usable) {
    const missing = configured && configured.length > 0 ? resolved.missing : names;
    throw new GatewayError(
      AuthErrorCode.UnknownStatuses,
      describeMissingAtsAStatuses(missing, resolved.offered),
    );
  }
  return names.filter((name) => !resolved.missing.includes(name));
}
