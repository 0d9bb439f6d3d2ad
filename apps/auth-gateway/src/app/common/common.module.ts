import { type DynamicModule, Module } from '@nestjs/common';
import { AuthGatewayConfig } from '../auth-gateway.config';

/**
 * What the features of auth-gateway import: the validated config and the service core (Postgres, RabbitMQ).
 * AppModule.forRoot fills it in once at boot (one service per process), so a feature imports the class itself.
 */
@Module({})
export class CommonModule {
  static forRoot(config: AuthGatewayConfig, core: DynamicModule): typeof CommonModule {
    Module({
      imports: [core],
      providers: [{ provide: AuthGatewayConfig, useValue: config }],
      exports: [AuthGatewayConfig, core],
    })(CommonModule);
    return CommonModule;
  }
}
