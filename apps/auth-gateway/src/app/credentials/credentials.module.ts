import { Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { preparedStatements } from '@connector/persistence';
import { PostgresDailyQuota } from '@connector/rate-limiter';
import { OutboundGuard, outboundGuard } from '@connector/ats-clients';
import { AtsBOAuthClient } from '@connector/ats-b';
import { outboxRelayProvider } from '@connector/service-kit';
import { AuthGatewayConfig, SERVICE_NAME } from '../auth-gateway.config';
import { SecretBox } from '../crypto/secret-box';
import { AtsACredentialIssuer, TOKEN_QUOTA } from '../issuers/ats-a-credential.issuer';
import { AtsBCredentialIssuer } from '../issuers/ats-b-credential.issuer';
import { AtsBOAuthStrategy } from '../oauth/ats-b-oauth.strategy';
import { AuthorizationCompleteHandler } from '../oauth/authorization-complete.handler';
import { AuthorizationStartHandler } from '../oauth/authorization-start.handler';
import { OAuthStateStore } from '../oauth/oauth-state.store';
import { OAuthService } from '../oauth/oauth.service';
import { AtsASetupService } from './ats-a-setup.service';
import { CREDENTIAL_ISSUERS, type CredentialIssuer } from './credential-issuer';
import { CredentialRecheckJob } from './credential-recheck.job';
import { ConnectionTestHandler } from './connection-test.handler';
import { ConnectorStatusChangedHandler } from './connector-status-changed.handler';
import { CredentialsEraseHandler } from './credentials-erase.handler';
import { CredentialsRequestedHandler } from './credentials-requested.handler';
import { CredentialsSaveHandler } from './credentials-save.handler';
import { CredentialsRepository } from './credentials.repository';
import { CredentialsService } from './credentials.service';
import { OperatorAlerts } from './operator-alerts';
import { ResealService } from './reseal.service';

/** One credential issuer per registered ATS: auth-gateway's part of each adapter. */
export const CREDENTIAL_ISSUER_CLASSES = [AtsACredentialIssuer, AtsBCredentialIssuer];

@Module({
  // One handler per message type auth-gateway consumes.
  controllers: [
    CredentialsRequestedHandler,
    ConnectionTestHandler,
    CredentialsSaveHandler,
    CredentialsEraseHandler,
    ConnectorStatusChangedHandler,
    AuthorizationStartHandler,
    AuthorizationCompleteHandler,
  ],
  providers: [
    outboxRelayProvider(SERVICE_NAME),
    {
      provide: SecretBox,
      inject: [AuthGatewayConfig],
      useFactory: (c: AuthGatewayConfig) => SecretBox.fromEnv(c.ENCRYPTION_KEYS),
    },
    {
      // Every ATS call of the gateway (tokens, logins, set-up checks) goes through it.
      provide: OutboundGuard,
      inject: [AuthGatewayConfig],
      useFactory: (c: AuthGatewayConfig) => outboundGuard(c.ALLOW_PRIVATE_ADDRESSES),
    },
    {
      provide: AtsBOAuthClient,
      inject: [AuthGatewayConfig, OutboundGuard],
      useFactory: (c: AuthGatewayConfig, guard: OutboundGuard) =>
        new AtsBOAuthClient(
          {
            clientId: c.ATS_B_CLIENT_ID,
            clientSecret: c.ATS_B_CLIENT_SECRET,
            redirectUri: c.ATS_B_REDIRECT_URI,
            oauthUrl: c.ATS_B_OAUTH_URL,
            restLoginUrl: c.ATS_B_REST_LOGIN_URL,
          },
          { guard },
        ),
    },
    {
      provide: AtsBOAuthStrategy,
      inject: [AuthGatewayConfig, OAuthStateStore, AtsBOAuthClient],
      useFactory: (c: AuthGatewayConfig, states: OAuthStateStore, client: AtsBOAuthClient) =>
        new AtsBOAuthStrategy(
          {
            authorizeUrl: c.ATS_B_AUTHORIZE_URL || `${c.ATS_B_OAUTH_URL}/authorize`,
            tokenUrl: `${c.ATS_B_OAUTH_URL}/token`,
            clientId: c.ATS_B_CLIENT_ID,
            clientSecret: c.ATS_B_CLIENT_SECRET,
            callbackUrl: c.ATS_B_REDIRECT_URI,
          },
          states,
          c.OAUTH_STATE_TTL_SECONDS,
          client,
        ),
    },
    {
      provide: TOKEN_QUOTA,
      inject: [getDataSourceToken()],
      useFactory: (dataSource: DataSource) => new PostgresDailyQuota(preparedStatements(dataSource)),
    },
    ...CREDENTIAL_ISSUER_CLASSES,
    {
      provide: CREDENTIAL_ISSUERS,
      inject: CREDENTIAL_ISSUER_CLASSES,
      useFactory: (...issuers: CredentialIssuer[]) => issuers,
    },
    OAuthStateStore,
    CredentialsRepository,
    CredentialsService,
    OperatorAlerts,
    CredentialRecheckJob,
    ResealService,
    AtsASetupService,
    OAuthService,
  ],
})
export class CredentialsModule {}
