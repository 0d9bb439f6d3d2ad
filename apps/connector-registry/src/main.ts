import 'reflect-metadata';
import { runService } from '@connector/service-kit';
import { AppModule } from './app/app.module';
import { ConnectorRegistryConfig, SERVICE_NAME } from './app/connector-registry.config';

void runService({
  name: SERVICE_NAME,
  Config: ConnectorRegistryConfig,
  module: (config) => AppModule.forRoot(config),
  consumes: true,
});
