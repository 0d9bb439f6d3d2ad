import { type DynamicModule, Module } from '@nestjs/common';
import { deletedConnectorRetention } from '@connector/persistence';
import { ServiceCoreModule } from '@connector/service-kit';
import { CandidateRefsModule } from './candidate-refs/candidate-refs.module';
import { DOCUMENT_SERVICE_SCHEMA } from './document-service.schema';
import { DocumentServiceGlobalModule } from './common/document-service-global.module';
import { ConnectorsModule } from './connectors/connectors.module';
import { SERVICE_NAME, type DocumentServiceConfig, retryDelaysOf } from './document-service.config';
import { DocumentsModule } from './documents/documents.module';
import { ErasureModule } from './erasure/erasure.module';

/** document-service: CVs and documents from the platform into the ATSs. */
@Module({})
export class AppModule {
  static forRoot(config: DocumentServiceConfig): DynamicModule {
    const retryDelaysMs = retryDelaysOf(config.RETRY_DELAYS_MS);
    const core = ServiceCoreModule.forRoot({
      name: SERVICE_NAME,
      config,
      ...DOCUMENT_SERVICE_SCHEMA,
      retention: ['document_link', 'candidate_ref'].map((table) =>
        deletedConnectorRetention(table, config.DELETED_CONNECTOR_RETENTION_DAYS),
      ),
      consumer: {
        ...(retryDelaysMs ? { retryDelaysMs } : {}),
      },
    });
    return {
      module: AppModule,
      imports: [
        DocumentServiceGlobalModule.forRoot(config, core),
        CandidateRefsModule,
        DocumentsModule,
        ErasureModule,
        ConnectorsModule,
      ],
    };
  }
}
