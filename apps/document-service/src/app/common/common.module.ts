import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Global,
  Injectable,
  Module,
} from '@nestjs/common';
import { RabbitConnection, RpcClient } from '@connector/messaging';
import { DocumentServiceConfig } from '../document-service.config';
import { CandidateLocks } from './candidate-locks';
import { DocumentEvents } from './document-events';

@Injectable()
class RpcClientLifecycle implements BeforeApplicationShutdown {
  constructor(private readonly rpc: RpcClient) {}

  async beforeApplicationShutdown(): Promise<void> {
    await this.rpc.close().catch(() => undefined);
  }
}

/**
 * What every feature of document-service uses: the validated config, request-reply to other services (the
 * messaging module keeps its RpcClient to itself), candidate locks and the outgoing events.
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
          provide: RpcClient,
          inject: [RabbitConnection],
          useFactory: (c: RabbitConnection) => new RpcClient(c),
        },
        RpcClientLifecycle,
        CandidateLocks,
        DocumentEvents,
      ],
      exports: [DocumentServiceConfig, RpcClient, CandidateLocks, DocumentEvents],
    };
  }
}
