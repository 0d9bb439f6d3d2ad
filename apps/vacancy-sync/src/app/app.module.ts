import { type DynamicModule, Module } from '@nestjs/common';
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
      consumer: {},
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
