import { Logger, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { preparedStatements } from '@connector/persistence';
import { PostgresDailyQuota, PostgresRateLimiter } from '@connector/rate-limiter';
import { OutboundGuard, outboundGuard } from '@connector/ats-http';
import {
  AtsRegistry,
  type AtsSettings,
  type CredentialIssuer,
  type CredentialIssuerDeps,
} from '@connector/ats-core';
import { outboxRelayProvider, RequestSeal } from '@connector/service-kit';
import { AuthGatewayConfig, SERVICE_NAME } from '../auth-gateway.config';
import { SecretBox } from '../crypto/secret-box';
import { atsSettingsOf } from '../ats-settings';
import { AuthorizationCompleteHandler } from '../oauth/authorization-complete.handler';
import { AuthorizationStartHandler } from '../oauth/authorization-start.handler';
import { OAuthStateStore } from '../oauth/oauth-state.store';
import { ATS_LOGINS, type AtsLogin, InteractiveLoginFlow } from '../oauth/interactive-login.flow';
import { OAuthLoginStrategy } from '../oauth/oauth-login.strategy';
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
  deps: Omit<CredentialIssuerDeps, 'settings'> & { settingsOf(type: string): AtsSettings },
  registry: AtsRegistry,
): CredentialIssuer[] {
  return registry
    .all()
    .flatMap((adapter) =>
      adapter.credentialIssuer
        ? [adapter.credentialIssuer({ ...deps, settings: deps.settingsOf(adapter.type) })]
        : [],
    );
}

/**
 * One login per ATS that declares `interactive-login`: its adapter's steps (`interactiveLogin`, built from its
 * settings) on passport. Nothing to list here for a new ATS.
 */
export function atsLogins(
  deps: {
    guard: OutboundGuard;
    settingsOf(type: string): AtsSettings;
    states: OAuthStateStore;
    stateTtlSeconds: number;
    logger?: { warn(message: string): void };
  },
  registry: AtsRegistry,
): AtsLogin[] {
  const logger = deps.logger ?? new Logger('InteractiveLogin');
  return registry.all().flatMap((adapter) => {
    if (!registry.supports(adapter.type, 'interactive-login')) return [];
    if (!adapter.interactiveLogin) {
      throw new Error(`${adapter.type} declares interactive-login but its adapter has no interactiveLogin`);
    }
    const steps = adapter.interactiveLogin({
      guard: deps.guard,
      settings: deps.settingsOf(adapter.type),
      logger,
    });
    const strategy = new OAuthLoginStrategy(adapter.type, steps, deps.states, deps.stateTtlSeconds);
    return [{ atsType: adapter.type, label: adapter.label, steps, strategy }];
  });
}

/** Each adapter's settings as the gateway's config read them. */
const settingsIn = (config: AuthGatewayConfig, registry: AtsRegistry) => (type: string) =>
  atsSettingsOf(config, registry.get(type));

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
      provide: ATS_LOGINS,
      inject: [AuthGatewayConfig, OutboundGuard, OAuthStateStore, AtsRegistry],
      useFactory: (
        c: AuthGatewayConfig,
        guard: OutboundGuard,
        states: OAuthStateStore,
        registry: AtsRegistry,
      ) =>
        atsLogins(
          { guard, settingsOf: settingsIn(c, registry), states, stateTtlSeconds: c.OAUTH_STATE_TTL_SECONDS },
          registry,
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
      inject: [AuthGatewayConfig, OutboundGuard, TOKEN_QUOTA, AtsRegistry],
      useFactory: (
        c: AuthGatewayConfig,
        guard: OutboundGuard,
        quota: PostgresDailyQuota,
        registry: AtsRegistry,
      ) =>
        credentialIssuers(
          { guard, quota, logger: new Logger('CredentialIssuer'), settingsOf: settingsIn(c, registry) },
          registry,
        ),
    },
    OAuthStateStore,
    CredentialsRepository,
    CredentialsService,
    OperatorAlerts,
    CredentialRecheckJob,
    CredentialRenewalJob,
    ResealService,
    ClientCredentialsFlow,
    InteractiveLoginFlow,
  ],
})
export class CredentialsModule {}
