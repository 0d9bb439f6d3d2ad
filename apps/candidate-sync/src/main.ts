import 'reflect-metadata';
import { runService } from '@connector/service-kit';
import { AppModule } from './app/app.module';
import { CandidateSyncConfig, SERVICE_NAME } from './app/candidate-sync.config';

void runService({
  name: SERVICE_NAME,
  Config: CandidateSyncConfig,
  module: (config) => AppModule.forRoot(config),
  consumes: true,
});
