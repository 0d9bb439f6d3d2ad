import { type DynamicModule, Global, Module } from '@nestjs/common';
import { ConnectorRegistryConfig } from '../connector-registry.config';

/** What every feature shares: the validated config (RpcClient and the publisher come from MessagingModule). */
@Global()
@Module({})
export class CommonModule {
  static forRoot(config: ConnectorRegistryConfig): DynamicModule {
    return {
      module: CommonModule,
      providers: [{ provide: ConnectorRegistryConfig, useValue: config }],
      exports: [ConnectorRegistryConfig],
    };
  }
}
