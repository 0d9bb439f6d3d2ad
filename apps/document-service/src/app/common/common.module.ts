import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CandidateLocks } from '@connector/exactly-once';
import { DocumentServiceConfig } from '../document-service.config';
import { DocumentEvents } from './document-events';

/**
 * What every feature of document-service uses: the validated config, candidate locks and the outgoing events.
 */
@Global()
@Module({})
export class CommonModule {
  static forRoot(config: DocumentServiceConfig): DynamicModule {
    return {
      module: CommonModule,
      providers: [
        { provide: DocumentServiceConfig, useValue: config },
        {
          provide: CandidateLocks,
          useFactory: (dataSource: DataSource) =>
            new CandidateLocks(dataSource, { namespace: 'document-service', waitMs: config.LOCK_WAIT_MS }),
          inject: [DataSource],
        },
        DocumentEvents,
      ],
      exports: [DocumentServiceConfig, CandidateLocks, DocumentEvents],
    };
  }
}
