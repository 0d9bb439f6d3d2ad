import { type DynamicModule, Module } from '@nestjs/common';
import { Exchange, Queue, RoutingKey } from '@connector/contracts';
import { ServiceCoreModule } from '@connector/service-kit';
import { SERVICE_NAME, type AuthGatewayConfig } from './auth-gateway.config';
import { CommonModule } from './common/common.module';
import { ConnectorCredentialEntity } from './credentials/connector-credential.entity';
import { CredentialsModule } from './credentials/credentials.module';
import { AuthGatewayTables1763700000100 } from './migrations/1763700000100-auth-gateway-tables';
import { CredentialRefreshMarker1763700000110 } from './migrations/1763700000110-credential-refresh-marker';
import { OAuthStatePkce1763700000120 } from './migrations/1763700000120-oauth-state-pkce';
import { OAuthStateEntity } from './oauth/oauth-state.entity';

/** auth-gateway: credentials and tokens for ATS-A (client credentials) and ATS-B (OAuth). */
@Module({})
export class AppModule {
  static forRoot(config: AuthGatewayConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceCoreModule.forRoot({
          name: SERVICE_NAME,
          config,
          entities: [ConnectorCredentialEntity, OAuthStateEntity],
          migrations: [
            AuthGatewayTables1763700000100,
            CredentialRefreshMarker1763700000110,
            OAuthStatePkce1763700000120,
          ],
          consumer: {
            queue: Queue.AuthGateway,
            bindings: [
              {
                exchange: Exchange.Internal,
                routingKeys: [
                  RoutingKey.CredentialsRequested,
                  RoutingKey.AuthConnectionTest,
                  RoutingKey.AuthCredentialsSave,
                  RoutingKey.AuthAuthorizationStart,
                  RoutingKey.AuthAuthorizationComplete,
                  RoutingKey.AuthCredentialsErase,
                ],
              },
              // A deleted connector's secrets go even if the registry's erase request was lost.
              { exchange: Exchange.ConnectorEvents, routingKeys: [RoutingKey.ConnectorStatusChanged] },
            ],
          },
        }),
        CommonModule.forRoot(config),
        CredentialsModule,
      ],
    };
  }
}
