import { type DynamicModule, Module } from '@nestjs/common';
import { Exchange, Queue, RoutingKey } from '@connector/contracts';
import { deletedConnectorRetention } from '@connector/persistence';
import { ServiceCoreModule } from '@connector/service-kit';
import { VACANCY_SYNC_SCHEMA } from './vacancy-sync.schema';
import { VacancySyncGlobalModule } from './common/vacancy-sync-global.module';
import { PreviewModule } from './preview/preview.module';
import { runHistoryRetention } from './runs/run-history-retention';
import { RunsModule } from './runs/runs.module';
import { closedVacancyRetention } from './vacancies/closed-vacancy-retention';
import { SERVICE_NAME, type VacancySyncConfig } from './vacancy-sync.config';

/** vacancy-sync: live vacancies from the ATSs into the platform. */
@Module({})
export class AppModule {
  static forRoot(config: VacancySyncConfig): DynamicModule {
    const core = ServiceCoreModule.forRoot({
      name: SERVICE_NAME,
      config,
      consumer: {
        queue: Queue.VacancySync,
        bindings: [
          {
            exchange: Exchange.Internal,
            routingKeys: [
              RoutingKey.RunRequested,
              RoutingKey.VacancyPreviewRequested,
              RoutingKey.VacancyEventFeedRequested,
              // Options a schedule is kept by take effect at once (one process per change; see runs/).
              RoutingKey.ConnectorChanged,
            ],
          },
          // A connector joins the schedule when it becomes usable and leaves it when it stops being so.
          { exchange: Exchange.ConnectorEvents, routingKeys: [RoutingKey.ConnectorStatusChanged] },
        ],
      },
      ...VACANCY_SYNC_SCHEMA,
      retention: [
        runHistoryRetention(config),
        closedVacancyRetention(config.CLOSED_VACANCY_RETENTION_DAYS),
        ...['vacancy_state', 'sync_run', 'sync_connector', 'vacancy_event_feed'].map((table) =>
          deletedConnectorRetention(table, config.DELETED_CONNECTOR_RETENTION_DAYS),
        ),
      ],
    });
    return {
      module: AppModule,
      imports: [VacancySyncGlobalModule.forRoot(config, core), RunsModule, PreviewModule],
    };
  }
}
