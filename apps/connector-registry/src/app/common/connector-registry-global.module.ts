import { type DynamicModule, Global, Module } from '@nestjs/common';
import { AtsRegistry } from '@connector/ats-core';
import { atsRegistryProvider } from '@connector/ats-registry';
import { OutboxRelay } from '@connector/persistence';
import { outboxRelayProvider } from '@connector/service-kit';
import { ConnectorRegistryConfig, SERVICE_NAME } from '../connector-registry.config';

/**
 * What every feature of connector-registry may inject: the validated config, the registry of the ATSs it serves
 * (the `AtsRegistry` token, as the workers have it), the service core (Postgres, RabbitMQ) and the outbox relay.
 * Global, so a feature injects these without importing a module; AppModule.forRoot builds it once at boot.
 */
@Global()
@Module({})
export class ConnectorRegistryGlobalModule {
  static forRoot(config: ConnectorRegistryConfig, core: DynamicModule): DynamicModule {
    return {
      module: ConnectorRegistryGlobalModule,
      imports: [core],
      providers: [
        { provide: ConnectorRegistryConfig, useValue: config },
        atsRegistryProvider,
        outboxRelayProvider(SERVICE_NAME),
      ],
      exports: [ConnectorRegistryConfig, AtsRegistry, OutboxRelay, core],
    };
  }
}
