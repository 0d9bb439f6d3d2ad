import { type OnApplicationShutdown, type DynamicModule, Global, Injectable, Module } from '@nestjs/common';
import { RabbitConnection, RpcClient } from '@connector/messaging';
import type { VacancySyncConfig } from '../vacancy-sync.config';

export const VACANCY_SYNC_CONFIG = Symbol('VACANCY_SYNC_CONFIG');

/** Closed after the run driver has stopped (it uses the client until its runs reach a page boundary). */
@Injectable()
class RpcClientLifecycle implements OnApplicationShutdown {
  constructor(private readonly rpc: RpcClient) {}
  async onApplicationShutdown(): Promise<void> {
    await this.rpc.close().catch(() => undefined);
  }
}

/**
 * The validated config and a request-reply client (connector lookups, ATS access) for every feature.
 * MessagingModule keeps its own RpcClient to itself, so this one is made on the shared connection.
 */
@Global()
@Module({})
export class CommonModule {
  static forRoot(config: VacancySyncConfig): DynamicModule {
    return {
      module: CommonModule,
      providers: [
        { provide: VACANCY_SYNC_CONFIG, useValue: config },
        {
          provide: RpcClient,
          inject: [RabbitConnection],
          useFactory: (c: RabbitConnection) => new RpcClient(c),
        },
        RpcClientLifecycle,
      ],
      exports: [VACANCY_SYNC_CONFIG, RpcClient],
    };
  }
}
