import { type DynamicModule, Module } from '@nestjs/common';
import { DailyQuotaMigration1764000000000 } from '@connector/rate-limiter';
import { Exchange, Queue, RoutingKey } from '@connector/contracts';
import { ServiceCoreModule } from '@connector/service-kit';
import { AdminPageModule } from './admin-page/admin-page.module';
import { CommonModule } from './common/common.module';
import { ConnectorEntity } from './connectors/connector.entity';
import { ConnectorsModule } from './connectors/connectors.module';
import { DeadLetterEntity } from './failures/dead-letter.entity';
import { FailuresModule } from './failures/failures.module';
import { InboxModule } from './inbox/inbox.module';
import { JobMappingEntity } from './mapping/job-mapping.entity';
import { MappingModule } from './mapping/mapping.module';
import { RegistrySchema1763800000001 } from './migrations/1763800000001-registry-schema';
import { DeadLetters1763800000002 } from './migrations/1763800000002-dead-letters';
import { RunWaitingUntil1763800000003 } from './migrations/1763800000003-run-waiting-until';
import { ConnectorVersion1763800000010 } from './migrations/1763800000010-connector-version';
import { RunWarnings1763800000011 } from './migrations/1763800000011-run-warnings';
import { OAuthModule } from './oauth/oauth.module';
import { RunEntity } from './runs/run.entity';
import { RunsModule } from './runs/runs.module';
import { SERVICE_NAME, type ConnectorRegistryConfig } from './connector-registry.config';

/** connector-registry: the admin API (and later page) for connector configuration, mappings and runs. */
@Module({})
export class AppModule {
  static forRoot(config: ConnectorRegistryConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceCoreModule.forRoot({
          name: SERVICE_NAME,
          config,
          entities: [ConnectorEntity, JobMappingEntity, RunEntity, DeadLetterEntity],
          migrations: [
            RegistrySchema1763800000001,
            DeadLetters1763800000002,
            RunWaitingUntil1763800000003,
            ConnectorVersion1763800000010,
            RunWarnings1763800000011,
            DailyQuotaMigration1764000000000,
          ],
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
              {
                exchange: Exchange.Internal,
                routingKeys: [
                  RoutingKey.RunProgress,
                  // Requests from workers (request-reply): the registry answers them.
                  RoutingKey.ConnectorLookup,
                  RoutingKey.ConnectorsByAccount,
                ],
              },
            ],
          },
        }),
        CommonModule.forRoot(config),
        ConnectorsModule,
        MappingModule,
        RunsModule,
        FailuresModule,
        OAuthModule,
        InboxModule,
        AdminPageModule.forRoot(config),
      ],
    };
  }
}
