import { type DynamicModule, Module } from '@nestjs/common';
import { ATS_ACCESS_MIGRATIONS, AtsAccessModule } from '@connector/ats-access';
import { Exchange, Queue, RoutingKey } from '@connector/contracts';
import { KeyedLeaseMigration1763700000002 } from '@connector/persistence';
import { ServiceCoreModule } from '@connector/service-kit';
import { CandidateRefsModule } from './candidate-refs/candidate-refs.module';
import { CommonModule } from './common/common.module';
import { SERVICE_NAME, type DocumentServiceConfig, retryDelaysOf } from './document-service.config';
import { DocumentsModule } from './documents/documents.module';
import { DocumentServiceTables1763700000400 } from './migrations/1763700000400-document-service-tables';

/** document-service: CVs and documents from the platform into the ATSs. */
@Module({})
export class AppModule {
  static forRoot(config: DocumentServiceConfig): DynamicModule {
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
            DocumentServiceTables1763700000400,
          ],
          consumer: {
            queue: Queue.DocumentService,
            bindings: [
              { exchange: Exchange.PlatformEvents, routingKeys: [RoutingKey.DocumentUploaded] },
              // Where candidates live in each ATS, as candidate-sync announces it.
              { exchange: Exchange.ConnectorEvents, routingKeys: [RoutingKey.CandidateSynced] },
            ],
            ...(retryDelaysMs ? { retryDelaysMs } : {}),
          },
        }),
        CommonModule.forRoot(config),
        AtsAccessModule,
        CandidateRefsModule,
        DocumentsModule,
      ],
    };
  }
}
