import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Global,
  Injectable,
  Module,
} from '@nestjs/common';
import { RabbitConnection, RpcClient } from '@connector/messaging';
import type { ConnectorRegistryConfig } from '../connector-registry.config';
import { REGISTRY_CONFIG } from './registry-config';

@Injectable()
class RpcClientLifecycle implements BeforeApplicationShutdown {
  constructor(private readonly rpc: RpcClient) {}
  async beforeApplicationShutdown(): Promise<void> {
    await this.rpc.close().catch(() => undefined);
  }
}

/**
 * What every feature shares: the validated config and a request-reply client. MessagingModule keeps its
 * own RpcClient to itself (not exported), so the registry makes one on the shared connection.
 */
@Global()
@Module({})
export class CommonModule {
  static forRoot(config: ConnectorRegistryConfig): DynamicModule {
    return {
      module: CommonModule,
      providers: [
        { provide: REGISTRY_CONFIG, useValue: config },
        {
          provide: RpcClient,
          inject: [RabbitConnection],
          useFactory: (c: RabbitConnection) => new RpcClient(c),
        },
        RpcClientLifecycle,
      ],
      exports: [REGISTRY_CONFIG, RpcClient],
    };
  }
}
