import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AtsAccessModule } from '@connector/ats-client-factory';
import { CandidateLocks } from '@connector/exactly-once';
import { ErasedCandidates } from '@connector/service-kit';
import { DocumentServiceConfig } from '../document-service.config';
import { DocumentEvents } from './document-events';

/**
 * What every feature of document-service may inject: the validated config, the service core (Postgres, RabbitMQ), ATS
 * access, candidate locks, erased candidates and the outgoing events.
 * Global, so a feature injects these without importing a module; AppModule.forRoot builds it once at boot.
 */
@Global()
@Module({})
export class DocumentServiceGlobalModule {
  static forRoot(config: DocumentServiceConfig, core: DynamicModule): DynamicModule {
    const atsAccess = AtsAccessModule.forRoot(core, {
      allowance: config.ALLOW_PRIVATE_ADDRESSES,
      systems: { perSystem: config.ATS_SYSTEM_CONCURRENCY, maxWaitMs: config.ATS_SYSTEM_WAIT_MS },
    });
    return {
      module: DocumentServiceGlobalModule,
      imports: [core, atsAccess],
      providers: [
        { provide: DocumentServiceConfig, useValue: config },
        {
          provide: CandidateLocks,
          useFactory: (dataSource: DataSource) =>
            new CandidateLocks(dataSource, { namespace: 'document-service', waitMs: config.LOCK_WAIT_MS }),
          inject: [DataSource],
        },
        DocumentEvents,
        ErasedCandidates,
      ],
      exports: [DocumentServiceConfig, CandidateLocks, DocumentEvents, ErasedCandidates, core, atsAccess],
    };
  }
}
