import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Global,
  Injectable,
  Module,
} from '@nestjs/common';
import { RabbitConnection, RpcClient } from '@connector/messaging';
import { CandidateSyncConfig } from '../candidate-sync.config';
import { CandidateLocks } from './candidate-locks';
import { SyncedEvents } from './synced-events';

@Injectable()
class RpcClientLifecycle implements BeforeApplicationShutdown {
  constructor(private readonly rpc: RpcClient) {}

  async beforeApplicationShutdown(): Promise<void> {
    await this.rpc.close().catch(() => undefined);
  }
}

/**
 * What every feature of candidate-sync uses: the validated config, request-reply to other services (the
 * messaging module keeps its RpcClient to itself), candidate locks and the outgoing events.
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
          provide: RpcClient,
          inject: [RabbitConnection],
          useFactory: (c: RabbitConnection) => new RpcClient(c),
        },
        RpcClientLifecycle,
        CandidateLocks,
        SyncedEvents,
      ],
      exports: [CandidateSyncConfig, RpcClient, CandidateLocks, SyncedEvents],
    };
  }
}
