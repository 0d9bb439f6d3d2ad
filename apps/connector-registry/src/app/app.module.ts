import { type DynamicModule, Module } from '@nestjs/common';
import { Exchange, Queue, RoutingKey } from '@connector/contracts';
import { ServiceCoreModule } from '@connector/service-kit';
import { InboxModule } from './inbox/inbox.module';
import { SERVICE_NAME, type ConnectorRegistryConfig } from './connector-registry.config';

/** connector-registry: the admin API and page for connector configuration. */
@Module({})
export class AppModule {
  static forRoot(config: ConnectorRegistryConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceCoreModule.forRoot({
          name: SERVICE_NAME,
          config,
          consumer: {
            queue: Queue.ConnectorRegistry,
            bindings: [
              {
                exchange: Exchange.ConnectorEvents,
                routingKeys: [
                  RoutingKey.RunCompleted,
                  RoutingKey.ConnectorStatusChanged,
                  RoutingKey.OperationFailed,
                  RoutingKey.OperationUnsupported,
                ],
              },
              { exchange: Exchange.Internal, routingKeys: [RoutingKey.RunProgress] },
            ],
          },
        }),
        InboxModule,
      ],
    };
  }
}
