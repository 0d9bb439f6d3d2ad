import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AtsAccessModule } from '@connector/ats-client-factory';
import { CandidateLocks } from '@connector/exactly-once';
import { ErasedCandidates } from '@connector/service-kit';
import { CandidateSyncConfig, LOCAL_FIELD_HASH_KEY } from '../candidate-sync.config';
import { FieldHasher } from '@connector/ats-core';
import { SyncedEvents } from './synced-events';

/**
 * What every feature of candidate-sync may inject: the validated config, the service core (Postgres, RabbitMQ), ATS
 * access, candidate locks, the field hasher, erased candidates and the outgoing events.
 * Global, so a feature injects these without importing a module; AppModule.forRoot builds it once at boot.
 */
@Global()
@Module({})
export class CandidateSyncGlobalModule {
  static forRoot(config: CandidateSyncConfig, core: DynamicModule): DynamicModule {
    const atsAccess = AtsAccessModule.forRoot(core, {
      allowance: config.ALLOW_PRIVATE_ADDRESSES,
      systems: { perSystem: config.ATS_SYSTEM_CONCURRENCY, maxWaitMs: config.ATS_SYSTEM_WAIT_MS },
    });
    return {
      module: CandidateSyncGlobalModule,
      imports: [core, atsAccess],
      providers: [
        { provide: CandidateSyncConfig, useValue: config },
        {
          provide: CandidateLocks,
          useFactory: (dataSource: DataSource) =>
            new CandidateLocks(dataSource, { namespace: 'candidate-sync', waitMs: config.LOCK_WAIT_MS }),
          inject: [DataSource],
        },
        { provide: FieldHasher, useValue: new FieldHasher(config.FIELD_HASH_KEY || LOCAL_FIELD_HASH_KEY) },
        SyncedEvents,
        ErasedCandidates,
      ],
      exports: [
        CandidateSyncConfig,
        CandidateLocks,
        FieldHasher,
        SyncedEvents,
        ErasedCandidates,
        core,
        atsAccess,
      ],
    };
  }
}
