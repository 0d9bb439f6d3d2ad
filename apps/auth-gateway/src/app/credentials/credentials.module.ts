import { Logger, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { preparedStatements } from '@connector/persistence';
import { PostgresDailyQuota, PostgresRateLimiter } from '@connector/rate-limiter';
import { OutboundGuard, outboundGuard } from '@connector/ats-clients';
import { AtsBOAuthClient, atsBAdapter } from '@connector/ats-b';
import type { AtsRegistry, CredentialIssuer, CredentialIssuerDeps } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import { outboxRelayProvider, RequestSeal } from '@connector/service-kit';
import { AuthGatewayConfig, SERVICE_NAME } from '../auth-gateway.config';
import { SecretBox } from '../crypto/secret-box';
import { AtsBOAuthStrategy } from '../oauth/ats-b-oauth.strategy';
import { AuthorizationCompleteHandler } from '../oauth/authorization-complete.handler';
import { AuthorizationStartHandler } from '../oauth/authorization-start.handler';
import { OAuthStateStore } from '../oauth/oauth-state.store';
import { OAuthService } from '../oauth/oauth.service';
import { ClientCredentialsFlow } from './client-credentials.flow';
import { CONNECTION_TEST_LIMITER, CREDENTIAL_ISSUERS, TOKEN_QUOTA } from './credential-issuer';
import { CredentialRecheckJob } from './credential-recheck.job';
import { CredentialRenewalJob } from './credential-renewal.job';
import { ConnectionTestHandler } from './connection-test.handler';
import { ConnectorStatusChangedHandler } from './connector-status-changed.handler';
import { CredentialsEraseHandler } from './credentials-erase.handler';
import { CredentialsRequestedHandler } from './credentials-requested.handler';
import { CredentialsSaveHandler } from './credentials-save.handler';
import { CredentialsRepository } from './credentials.repository';
import { CredentialsService } from './credentials.service';
import { OperatorAlerts } from './operator-alerts';
import { ResealService } from './reseal.service';

/**
 * One credential issuer per registered ATS: auth-gateway's part of each adapter, which builds it
 * (`credentialIssuer`) from what the gateway hands over. Nothing to list here for a new ATS.
 */
export function credentialIssuers(
  deps: CredentialIssuerDeps,
  registry: AtsRegistry = atsRegistry,
): CredentialIssuer[] {
  return registry
    .all()
    .flatMap((adapter) => (adapter.credentialIssuer ? [adapter.credentialIssuer(deps)] : []));
}

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
      // Opens the client secrets the registry seals into its requests.
      provide: RequestSeal,
      inject: [AuthGatewayConfig],
      useFactory: (c: AuthGatewayConfig) => RequestSeal.fromEnv(c.REQUEST_SEAL_KEYS),
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
    {
      // Connection tests per account a minute, one bucket per account shared by every gateway process.
      provide: CONNECTION_TEST_LIMITER,
      inject: [getDataSourceToken(), AuthGatewayConfig],
      useFactory: (dataSource: DataSource, c: AuthGatewayConfig) =>
        new PostgresRateLimiter(preparedStatements(dataSource), {
          resolveConfig: () => ({
            capacity: c.CONNECTION_TESTS_PER_MINUTE,
            refillPerSecond: c.CONNECTION_TESTS_PER_MINUTE / 60,
            reserve: 0,
          }),
        }),
    },
    {
      provide: CREDENTIAL_ISSUERS,
      inject: [OutboundGuard, TOKEN_QUOTA, AtsBOAuthClient],
      useFactory: (guard: OutboundGuard, quota: PostgresDailyQuota, atsBOAuth: AtsBOAuthClient) =>
        credentialIssuers({
          guard,
          quota,
          logger: new Logger('CredentialIssuer'),
          // The OAuth client the gateway builds from its ATS_B_* settings (above).
          oauthClientOf: (type) => (type === atsBAdapter.type ? atsBOAuth : undefined),
        }),
    },
    OAuthStateStore,
    CredentialsRepository,
    CredentialsService,
    OperatorAlerts,
    CredentialRecheckJob,
    CredentialRenewalJob,
    ResealService,
    ClientCredentialsFlow,
    OAuthService,
  ],
})
export class CredentialsModule {}
