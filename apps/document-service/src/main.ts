import 'reflect-metadata';
import { runService } from '@connector/service-kit';
import { AppModule } from './app/app.module';
import { DocumentServiceConfig, SERVICE_NAME } from './app/document-service.config';

void runService({
  name: SERVICE_NAME,
  Config: DocumentServiceConfig,
  module: (config) => AppModule.forRoot(config),
  consumes: true,
});
