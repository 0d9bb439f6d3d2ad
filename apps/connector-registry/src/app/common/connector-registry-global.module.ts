import { type DynamicModule, Global, Module } from '@nestjs/common';
import { OutboxRelay } from '@connector/persistence';
import { outboxRelayProvider } from '@connector/service-kit';
import { ConnectorRegistryConfig, SERVICE_NAME } from '../connector-registry.config';

/**
 * What every feature of connector-registry may inject: the validated config, the service core (Postgres, RabbitMQ)
 * and the outbox relay.
 * Global, so a feature injects these without importing a module; AppModule.forRoot builds it once at boot.
 */
@Global()
@Module({})
export class ConnectorRegistryGlobalModule {
  static forRoot(config: ConnectorRegistryConfig, core: DynamicModule): DynamicModule {
    return {
      module: ConnectorRegistryGlobalModule,
      imports: [core],
      providers: [{ provide: ConnectorRegistryConfig, useValue: config }, outboxRelayProvider(SERVICE_NAME)],
      exports: [ConnectorRegistryConfig, OutboxRelay, core],
    };
  }
}
