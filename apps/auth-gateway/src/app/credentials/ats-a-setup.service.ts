import { Inject, Injectable } from '@nestjs/common';
import { type AtsAConfigDto, AuthErrorCode, type ConnectionTestReply } from '@connector/contracts';
import { AtsError, checkAtsUrlPolicy, OutboundGuard, UrlPolicyError } from '@connector/ats-clients';
import {
  AtsAClient,
  DEFAULT_ATS_A_OPEN_STATUSES,
  describeMissingAtsAStatuses,
  resolveAtsAStatuses,
  normalizeAtsABaseUrl,
  requestAtsAToken,
} from '@connector/ats-a';
import { AuthGatewayConfig } from '../auth-gateway.config';
import { GatewayError } from './gateway.error';

/**
 * The ATS-A set-up: check the address, get a token, make one cheap read. Every failure is said in words
 * an admin can act on, and the whole test ends within CONNECTION_TEST_TIMEOUT_MS.
 */
@Injectable()
export class AtsASetupService {
  constructor(
    @Inject(AuthGatewayConfig) private readonly config: AuthGatewayConfig,
    private readonly guard: OutboundGuard,
  ) {}

  async test(config: AtsAConfigDto, openStatuses?: string[]): Promise<ConnectionTestReply> {
    try {
      await this.verify(config, openStatuses);
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
        const token = await requestAtsAToken(baseUrl, config.clientId, config.clientSecret, {
          timeoutMs,
          guard,
        });
        const client = new AtsAClient({ baseUrl, token: async () => token.accessToken, timeoutMs, guard });
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

  private explain(error: unknown): GatewayError {
    if (error instanceof GatewayError) return error;
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
