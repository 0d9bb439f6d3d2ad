import { type DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AtsAccessModule } from '@connector/ats-access';
import { CandidateLocks } from '@connector/exactly-once';
import { ErasedCandidates } from '@connector/service-kit';
import { DocumentServiceConfig } from '../document-service.config';
import { DocumentEvents } from './document-events';

/**
 * What the features of document-service import: the validated config, the service core (Postgres, RabbitMQ), ATS
 * access, candidate locks, erased candidates and the outgoing events. AppModule.forRoot fills it in once at boot (one service per
 * process), so a feature imports the class itself.
 */
@Module({})
export class CommonModule {
  static forRoot(config: DocumentServiceConfig, core: DynamicModule): typeof CommonModule {
    const atsAccess = AtsAccessModule.forRoot(core, { allowance: config.ALLOW_PRIVATE_ADDRESSES });
    Module({
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
    })(CommonModule);
    return CommonModule;
  }
}
