import { type DynamicModule, Module } from '@nestjs/common';
import { OutboxRelay } from '@connector/persistence';
import { outboxRelayProvider } from '@connector/service-kit';
import { ConnectorRegistryConfig, SERVICE_NAME } from '../connector-registry.config';

/**
 * What the features of connector-registry import: the validated config, the service core (Postgres, RabbitMQ)
 * and the outbox relay.
 * AppModule.forRoot fills it in once at boot (one service per process), so a feature imports the class itself.
 */
@Module({})
export class CommonModule {
  static forRoot(config: ConnectorRegistryConfig, core: DynamicModule): typeof CommonModule {
    Module({
      imports: [core],
      providers: [{ provide: ConnectorRegistryConfig, useValue: config }, outboxRelayProvider(SERVICE_NAME)],
      exports: [ConnectorRegistryConfig, OutboxRelay, core],
    })(CommonModule);
    return CommonModule;
  }
}
