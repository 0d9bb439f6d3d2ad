import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  AuthErrorCode,
  type AuthorizationCompleteReply,
  type AuthorizationStartReply,
} from '@connector/contracts';
import type { InteractiveLogin } from '@connector/ats-core';
import { CredentialsService } from '../credentials/credentials.service';
import { GatewayError } from '../credentials/gateway.error';
import { OperatorAlert, OperatorAlerts } from '../credentials/operator-alerts';
import type { OAuthLoginStrategy } from './oauth-login.strategy';
import type { OAuthContext } from './oauth-state.store';

/** One interactive-login ATS as the flow runs it: its adapter's steps, and passport's strategy over them. */
export interface AtsLogin {
  readonly atsType: string;
  /** Its name for people (the adapter's label). */
  readonly label: string;
  readonly steps: InteractiveLogin;
  readonly strategy: Pick<OAuthLoginStrategy, 'run'>;
}

/** Every interactive-login ATS's login, built from the registry (credentials.module.ts). */
export const ATS_LOGINS = Symbol('ATS_LOGINS');

/**
 * The interactive login of any ATS that declares `interactive-login`: the URL that opens the ATS's login page,
 * and the callback (code exchange, first session, stored). The ATS is the request's `type` (the registry's
 * callback path names it), found among the logins, never by a switch on its name.
 */
@Injectable()
export class InteractiveLoginFlow {
  private readonly logger = new Logger(InteractiveLoginFlow.name);

  constructor(
    @Inject(ATS_LOGINS) private readonly logins: readonly AtsLogin[],
    private readonly credentials: CredentialsService,
    private readonly alerts: OperatorAlerts,
  ) {}

  async start(
    type: string | undefined,
    context: OAuthContext,
    stateTtlSeconds: number,
  ): Promise<AuthorizationStartReply> {
    const login = this.loginOf(type);
    const outcome = await login.strategy.run({ query: {}, oauthContext: context });
    if (outcome.kind !== 'redirect') {
      throw new Error(`could not build the ${login.label} login URL (${outcome.kind})`);
    }
    return {
      authorizeUrl: outcome.url,
      expiresAt: new Date(Date.now() + stateTtlSeconds * 1000).toISOString(),
    };
  }

  async complete(
    type: string | undefined,
    code: string,
    state: string,
    browserNonce: string,
  ): Promise<AuthorizationCompleteReply> {
    const login = this.loginOf(type);
    const outcome = await login.strategy.run({ query: { code, state }, browserNonce });
    switch (outcome.kind) {
      case 'success': {
        const { tokens, state: context } = outcome.login;
        const session = await login.steps.firstSession(tokens).catch((error: Error) => {
          throw new GatewayError(
            AuthErrorCode.AuthFailed,
            `${login.label} accepted the login but refused the session: ${error.message}`,
          );
        });
        await this.credentials.store({
          connectorId: context.connectorId,
          accountId: context.accountId,
          atsType: login.atsType,
          secret: tokens.refreshToken,
          access: { value: session.access, expiresAt: session.expiresAt },
        });
        this.logger.log(`connector ${context.connectorId} authorized at ${login.label}`);
        return { connectorId: context.connectorId, accountId: context.accountId };
      }
      case 'fail':
        throw new GatewayError(
          AuthErrorCode.InvalidState,
          `the login could not be completed: ${outcome.message}`,
        );
      case 'error': {
        // passport wraps the exchange's error (InternalOAuthError.oauthError).
        const cause = (outcome.error as Error & { oauthError?: unknown }).oauthError ?? outcome.error;
        if (login.steps.clientRejected(cause)) {
          this.alerts.raise(
            OperatorAlert.OAuthClientRejected,
            `${login.label} refused the platform’s OAuth client at a login: check its client id and secret in ` +
              'the settings of its adapter',
            { atsType: login.atsType },
          );
        }
        const message = cause instanceof Error ? cause.message : outcome.error.message;
        throw new GatewayError(AuthErrorCode.AuthFailed, `${login.label} refused the login: ${message}`);
      }
      case 'redirect':
        throw new GatewayError(AuthErrorCode.InvalidState, 'the callback carried no code');
    }
  }

  /**
   * The login of `type`; without a type (a registry from before the callback named it), the one
   * interactive-login ATS when there is exactly one. INVALID_REQUEST otherwise.
   */
  private loginOf(type: string | undefined): AtsLogin {
    const login =
      type === undefined
        ? this.logins.length === 1
          ? this.logins[0]
          : undefined
        : this.logins.find((candidate) => candidate.atsType === type);
    if (!login) {
      throw new GatewayError(
        AuthErrorCode.InvalidRequest,
        `type must be one of the following values: ${this.logins.map((l) => l.atsType).join(', ')}`,
      );
    }
    return login;
  }
}
