import 'reflect-metadata';
import { runService } from '@connector/service-kit';
import { AppModule } from './app/app.module';
import { ConnectorRegistryConfig, SERVICE_NAME } from './app/connector-registry.config';
import { configureHttp } from './app/http-app';

void runService({
  name: SERVICE_NAME,
  Config: ConnectorRegistryConfig,
  module: (config) => AppModule.forRoot(config),
  configure: (app, config) => configureHttp(app, config),
  consumes: true,
});
