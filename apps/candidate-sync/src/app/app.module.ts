import { type DynamicModule, Module } from '@nestjs/common';
import { deletedConnectorRetention } from '@connector/persistence';
import { ServiceCoreModule } from '@connector/service-kit';
import { ApplicationsModule } from './applications/applications.module';
import { SERVICE_NAME, type CandidateSyncConfig, retryDelaysOf } from './candidate-sync.config';
import { CandidatesModule } from './candidates/candidates.module';
import { CANDIDATE_SYNC_SCHEMA } from './candidate-sync.schema';
import { CandidateSyncGlobalModule } from './common/candidate-sync-global.module';
import { ConnectorsModule } from './connectors/connectors.module';
import { ErasureModule } from './erasure/erasure.module';

/** candidate-sync: candidates and applications from the platform into the ATSs. */
@Module({})
export class AppModule {
  static forRoot(config: CandidateSyncConfig): DynamicModule {
    const retryDelaysMs = retryDelaysOf(config.RETRY_DELAYS_MS);
    const core = ServiceCoreModule.forRoot({
      name: SERVICE_NAME,
      config,
      poolSize: config.DB_POOL_SIZE,
      ...CANDIDATE_SYNC_SCHEMA,
      retention: ['application_link', 'candidate_link'].map((table) =>
        deletedConnectorRetention(table, config.DELETED_CONNECTOR_RETENTION_DAYS),
      ),
      consumer: {
        ...(retryDelaysMs ? { retryDelaysMs } : {}),
      },
    });
    return {
      module: AppModule,
      imports: [
        CandidateSyncGlobalModule.forRoot(config, core),
        CandidatesModule,
        ApplicationsModule,
        ErasureModule,
        ConnectorsModule,
      ],
    };
  }
}
