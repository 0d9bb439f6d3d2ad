import { type DynamicModule, Module } from '@nestjs/common';
import { ATS_ACCESS_MIGRATIONS, AtsAccessModule } from '@connector/ats-access';
import { Exchange, Queue, RoutingKey } from '@connector/contracts';
import { KeyedLeaseMigration1763700000002 } from '@connector/persistence';
import { ServiceCoreModule } from '@connector/service-kit';
import { ApplicationsModule } from './applications/applications.module';
import { SERVICE_NAME, type CandidateSyncConfig, retryDelaysOf } from './candidate-sync.config';
import { CandidatesModule } from './candidates/candidates.module';
import { CommonModule } from './common/common.module';
import { CandidateSyncTables1763700000300 } from './migrations/1763700000300-candidate-sync-tables';

/** candidate-sync: candidates and applications from the platform into the ATSs. */
@Module({})
export class AppModule {
  static forRoot(config: CandidateSyncConfig): DynamicModule {
    const retryDelaysMs = retryDelaysOf(config.RETRY_DELAYS_MS);
    return {
      module: AppModule,
      imports: [
        ServiceCoreModule.forRoot({
          name: SERVICE_NAME,
          config,
          migrations: [
            ...ATS_ACCESS_MIGRATIONS,
            KeyedLeaseMigration1763700000002,
            CandidateSyncTables1763700000300,
          ],
          consumer: {
            queue: Queue.CandidateSync,
            bindings: [
              {
                exchange: Exchange.PlatformEvents,
                routingKeys: [
                  RoutingKey.CandidateCreated,
                  RoutingKey.CandidateUpdated,
                  RoutingKey.ApplicationSubmitted,
                  RoutingKey.ApplicationUpdated,
                ],
              },
            ],
            ...(retryDelaysMs ? { retryDelaysMs } : {}),
          },
        }),
        CommonModule.forRoot(config),
        AtsAccessModule,
        CandidatesModule,
        ApplicationsModule,
      ],
    };
  }
}
