import { type DynamicModule, Module } from '@nestjs/common';
import { RoutingKey } from '@connector/contracts';
import { ServiceCoreModule } from '@connector/service-kit';
import { SERVICE_NAME, type AuthGatewayConfig } from './auth-gateway.config';
import { AUTH_GATEWAY_SCHEMA, authGatewayMigrations } from './auth-gateway.schema';
import { AuthGatewayGlobalModule } from './common/auth-gateway-global.module';
import { CredentialsModule } from './credentials/credentials.module';

/** auth-gateway: credentials and tokens for ATS-A (client credentials) and ATS-B (OAuth). */
@Module({})
export class AppModule {
  static forRoot(config: AuthGatewayConfig): DynamicModule {
    const core = ServiceCoreModule.forRoot({
      name: SERVICE_NAME,
      config,
      ...AUTH_GATEWAY_SCHEMA,
      // Re-sealing secrets of the old format needs the keys they were sealed with.
      migrations: authGatewayMigrations(config.ENCRYPTION_KEYS),
      // A login's state is of no use once used or expired (each new login also clears expired ones).
      retention: [
        {
          name: 'used or expired OAuth states',
          table: 'oauth_state',
          where: `"used_at" IS NOT NULL OR "expires_at" <= now()`,
        },
      ],
      consumer: {
        // A tarpit address holds a connection test until its timeout: tests get few slots of their own.
        requestConcurrency: { [RoutingKey.AuthConnectionTest]: config.CONNECTION_TEST_CONCURRENCY },
      },
    });
    return {
      module: AppModule,
      imports: [AuthGatewayGlobalModule.forRoot(config, core), CredentialsModule],
    };
  }
}
