import { type DynamicModule, Module } from '@nestjs/common';
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
      consumer: {},
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
