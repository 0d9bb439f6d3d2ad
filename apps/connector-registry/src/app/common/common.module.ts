import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { ConnectorRegistryConfig } from '../connector-registry.config';
import { REGISTRY_CONFIG } from './registry-config';

/** What every feature shares: the validated config (RpcClient and the publisher come from MessagingModule). */
@Global()
@Module({})
export class CommonModule {
  static forRoot(config: ConnectorRegistryConfig): DynamicModule {
    return {
      module: CommonModule,
      providers: [{ provide: REGISTRY_CONFIG, useValue: config }],
      exports: [REGISTRY_CONFIG],
    };
  }
}
