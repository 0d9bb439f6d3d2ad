import 'reflect-metadata';
import { runService } from '@connector/service-kit';
import { AppModule } from './app/app.module';
import { AuthGatewayConfig, SERVICE_NAME } from './app/auth-gateway.config';

void runService({
  name: SERVICE_NAME,
  Config: AuthGatewayConfig,
  module: (config) => AppModule.forRoot(config),
  consumes: true,
});
