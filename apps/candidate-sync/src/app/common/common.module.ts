import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CandidateLocks } from '@connector/exactly-once';
import { CandidateSyncConfig } from '../candidate-sync.config';
import { SyncedEvents } from './synced-events';

/**
 * What every feature of candidate-sync uses: the validated config, candidate locks and the outgoing events.
 */
@Global()
@Module({})
export class CommonModule {
  static forRoot(config: CandidateSyncConfig): DynamicModule {
    return {
      module: CommonModule,
      providers: [
        { provide: CandidateSyncConfig, useValue: config },
        {
          provide: CandidateLocks,
          useFactory: (dataSource: DataSource) =>
            new CandidateLocks(dataSource, { namespace: 'candidate-sync', waitMs: config.LOCK_WAIT_MS }),
          inject: [DataSource],
        },
        SyncedEvents,
      ],
      exports: [CandidateSyncConfig, CandidateLocks, SyncedEvents],
    };
  }
}
