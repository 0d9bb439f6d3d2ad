import { type DynamicModule, Module } from '@nestjs/common';
import { ATS_ACCESS_MIGRATIONS, AtsAccessModule } from '@connector/ats-access';
import { Exchange, Queue, RoutingKey } from '@connector/contracts';
import { ServiceCoreModule } from '@connector/service-kit';
import { CommonModule } from './common/common.module';
import { SyncRunWarnings1763700000301 } from './migrations/1763700000301-sync-run-warnings';
import { VacancyLiveUntil1763700000302 } from './migrations/1763700000302-vacancy-live-until';
import { VacancySyncTables1763700000300 } from './migrations/1763700000300-vacancy-sync-tables';
import { PreviewModule } from './preview/preview.module';
import { RunsModule } from './runs/runs.module';
import { SERVICE_NAME, type VacancySyncConfig } from './vacancy-sync.config';

/** vacancy-sync: live vacancies from the ATSs into the platform. */
@Module({})
export class AppModule {
  static forRoot(config: VacancySyncConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceCoreModule.forRoot({
          name: SERVICE_NAME,
          config,
          consumer: {
            queue: Queue.VacancySync,
            bindings: [
              {
                exchange: Exchange.Internal,
                routingKeys: [RoutingKey.RunRequested, RoutingKey.VacancyPreviewRequested],
              },
              // A connector joins the schedule when it becomes usable and leaves it when it stops being so.
              { exchange: Exchange.ConnectorEvents, routingKeys: [RoutingKey.ConnectorStatusChanged] },
            ],
          },
          migrations: [
            ...ATS_ACCESS_MIGRATIONS,
            VacancySyncTables1763700000300,
            SyncRunWarnings1763700000301,
            VacancyLiveUntil1763700000302,
          ],
        }),
        CommonModule.forRoot(config),
        AtsAccessModule,
        RunsModule,
        PreviewModule,
      ],
    };
  }
}
