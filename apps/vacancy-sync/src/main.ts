import 'reflect-metadata';
import { runService } from '@connector/service-kit';
import { AppModule } from './app/app.module';
import { VacancySyncConfig, SERVICE_NAME } from './app/vacancy-sync.config';

void runService({
  name: SERVICE_NAME,
  Config: VacancySyncConfig,
  module: (config) => AppModule.forRoot(config),
  consumes: true,
});
