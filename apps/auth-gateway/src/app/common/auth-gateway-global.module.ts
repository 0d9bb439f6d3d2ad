import { type DynamicModule, Global, Module } from '@nestjs/common';
import { AuthGatewayConfig } from '../auth-gateway.config';

/**
 * What every feature of auth-gateway may inject: the validated config and the service core (Postgres, RabbitMQ).
 * Global, so a feature injects these without importing a module; AppModule.forRoot builds it once at boot.
 */
@Global()
@Module({})
export class AuthGatewayGlobalModule {
  static forRoot(config: AuthGatewayConfig, core: DynamicModule): DynamicModule {
    return {
      module: AuthGatewayGlobalModule,
      imports: [core],
      providers: [{ provide: AuthGatewayConfig, useValue: config }],
      exports: [AuthGatewayConfig, core],
    };
  }
}
