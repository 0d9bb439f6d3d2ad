import { type DynamicModule, Module } from '@nestjs/common';
import { Exchange, Queue, RoutingKey } from '@connector/contracts';
import { ServiceCoreModule } from '@connector/service-kit';
import { ActivityModule } from './activity/activity.module';
import { AdminPageModule } from './admin-page/admin-page.module';
import { CONNECTOR_REGISTRY_SCHEMA } from './connector-registry.schema';
import { ConnectorRegistryGlobalModule } from './common/connector-registry-global.module';
import { ConnectorsModule } from './connectors/connectors.module';
import { ErasureModule } from './erasure/erasure.module';
import { FailuresModule } from './failures/failures.module';
import { MappingModule } from './mapping/mapping.module';
import { RegistryMetricsModule } from './metrics/registry-metrics.module';
import { OAuthModule } from './oauth/oauth.module';
import { registryRetention } from './retention/registry-retention';
import { RunsModule } from './runs/runs.module';
import { SERVICE_NAME, type ConnectorRegistryConfig } from './connector-registry.config';

/** connector-registry: the admin API (and later page) for connector configuration, mappings and runs. */
@Module({})
export class AppModule {
  static forRoot(config: ConnectorRegistryConfig): DynamicModule {
    const core = ServiceCoreModule.forRoot({
      name: SERVICE_NAME,
      config,
      ...CONNECTOR_REGISTRY_SCHEMA,
      retention: registryRetention(config),
      consumer: {
        queue: Queue.ConnectorRegistry,
        bindings: [
          {
            exchange: Exchange.ConnectorEvents,
            routingKeys: [
              RoutingKey.RunCompleted,
              RoutingKey.ConnectorStatusChanged,
              // What the workers wrote to the ATSs: the activity view counts it per day.
              RoutingKey.CandidateSynced,
              RoutingKey.ApplicationSynced,
              RoutingKey.DocumentSynced,
            ],
            // Only recorded in the inbox, which is gone; failures reach the registry as dead letters.
            retiredRoutingKeys: [RoutingKey.OperationFailed, RoutingKey.OperationUnsupported],
          },
          {
            exchange: Exchange.Internal,
            routingKeys: [
              RoutingKey.RunProgress,
              // Requests from workers (request-reply): the registry answers them.
              RoutingKey.ConnectorLookup,
              RoutingKey.ConnectorsByAccount,
              RoutingKey.ErasurePartCompleted,
            ],
          },
          // The erasure of a candidate: the failure log's part, and the coordination of all parts.
          { exchange: Exchange.PlatformEvents, routingKeys: [RoutingKey.CandidateErased] },
        ],
      },
    });
    return {
      module: AppModule,
      imports: [
        ConnectorRegistryGlobalModule.forRoot(config, core),
        ConnectorsModule,
        MappingModule,
        RunsModule,
        FailuresModule,
        ErasureModule,
        OAuthModule,
        ActivityModule,
        RegistryMetricsModule,
        AdminPageModule.forRoot(config),
      ],
    };
  }
}
