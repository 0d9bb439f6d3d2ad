import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  AuthErrorCode,
  type AuthorizationCompleteReply,
  type AuthorizationStartReply,
} from '@connector/contracts';
import { AtsError } from '@connector/ats-clients';
import type { CredentialIssuer, IssuedAccess } from '@connector/ats-core';
import { CredentialsService } from '../credentials/credentials.service';
import { GatewayError } from '../credentials/gateway.error';
import { OperatorAlert, OperatorAlerts } from '../credentials/operator-alerts';
import { CREDENTIAL_ISSUERS } from '../credentials/credential-issuer';
import { AtsBOAuthStrategy } from './ats-b-oauth.strategy';
import type { OAuthContext } from './oauth-state.store';

/** The two halves of an ATS-B login: the URL that opens the ATS's login page, and the callback. */
@Injectable()
export class OAuthService {
  private readonly logger = new Logger(OAuthService.name);

  constructor(
    private readonly strategy: AtsBOAuthStrategy,
    private readonly credentials: CredentialsService,
    @Inject(CREDENTIAL_ISSUERS) private readonly issuers: readonly CredentialIssuer[],
    private readonly alerts: OperatorAlerts,
  ) {}

  async start(context: OAuthContext, stateTtlSeconds: number): Promise<AuthorizationStartReply> {
    const outcome = await this.strategy.run({ query: {}, oauthContext: context });
    if (outcome.kind !== 'redirect') throw new Error(`could not build the ATS-B login URL (${outcome.kind})`);
    return {
      authorizeUrl: outcome.url,
      expiresAt: new Date(Date.now() + stateTtlSeconds * 1000).toISOString(),
    };
  }

  async complete(code: string, state: string, browserNonce: string): Promise<AuthorizationCompleteReply> {
    const outcome = await this.strategy.run({ query: { code, state }, browserNonce });
    switch (outcome.kind) {
      case 'success': {
        const { tokens, state: context } = outcome.login;
        const session = await this.firstSession(tokens.accessToken, tokens.expiresInSeconds).catch(
          (error: Error) => {
            throw new GatewayError(
              AuthErrorCode.AuthFailed,
              `ATS-B accepted the login but refused the session: ${error.message}`,
            );
          },
        );
        await this.credentials.store({
          connectorId: context.connectorId,
          accountId: context.accountId,
          atsType: 'ats-b',
          secret: tokens.refreshToken,
          access: { value: session.access, expiresAt: session.expiresAt },
        });
        this.logger.log(`connector ${context.connectorId} authorized at ATS-B`);
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
        if (cause instanceof AtsError && cause.code === 'invalid_client') {
          this.alerts.raise(
            OperatorAlert.OAuthClientRejected,
            'ATS-B refused the platform’s OAuth client at a login: check ATS_B_CLIENT_ID and ATS_B_CLIENT_SECRET',
          );
        }
        const message = cause instanceof Error ? cause.message : outcome.error.message;
        throw new GatewayError(AuthErrorCode.AuthFailed, `ATS-B refused the login: ${message}`);
      }
      case 'redirect':
        throw new GatewayError(AuthErrorCode.InvalidState, 'the callback carried no code');
    }
  }

  /** The ATS-B issuer (its adapter's part, built in credentials.module.ts) opens the first session. */
  private firstSession(accessToken: string, expiresInSeconds: number): Promise<IssuedAccess> {
    const issuer = this.issuers.find((candidate) => candidate.atsType === 'ats-b');
    if (!issuer?.firstSession)
      throw new Error('auth-gateway has no ATS-B credential issuer with a first session');
    return issuer.firstSession(accessToken, expiresInSeconds);
  }
}
