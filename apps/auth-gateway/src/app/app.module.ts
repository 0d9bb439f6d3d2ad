import { type DynamicModule, Module } from '@nestjs/common';
import { Exchange, Queue, RoutingKey } from '@connector/contracts';
import { ServiceCoreModule } from '@connector/service-kit';
import { InboxModule } from './inbox/inbox.module';
import { SERVICE_NAME, type AuthGatewayConfig } from './auth-gateway.config';

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
          consumer: {
            queue: Queue.AuthGateway,
            bindings: [{ exchange: Exchange.Internal, routingKeys: [RoutingKey.CredentialsRejected] }],
          },
        }),
        InboxModule,
      ],
    };
  }
}
