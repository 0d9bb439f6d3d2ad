import { type DynamicModule, Global, Module } from '@nestjs/common';
import { CandidateSyncConfig } from '../candidate-sync.config';
import { CandidateLocks } from './candidate-locks';
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
      providers: [{ provide: CandidateSyncConfig, useValue: config }, CandidateLocks, SyncedEvents],
      exports: [CandidateSyncConfig, CandidateLocks, SyncedEvents],
    };
  }
}
