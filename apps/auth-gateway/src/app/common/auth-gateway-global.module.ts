import { type DynamicModule, Global, Module } from '@nestjs/common';
import { AtsRegistry } from '@connector/ats-core';
import { atsRegistryProvider } from '@connector/ats-registry';
import { AuthGatewayConfig } from '../auth-gateway.config';

/**
 * What every feature of auth-gateway may inject: the validated config, the registry of the ATSs it serves (the
 * `AtsRegistry` token, as the workers have it) and the service core (Postgres, RabbitMQ).
 * Global, so a feature injects these without importing a module; AppModule.forRoot builds it once at boot.
 */
@Global()
@Module({})
export class AuthGatewayGlobalModule {
  static forRoot(config: AuthGatewayConfig, core: DynamicModule): DynamicModule {
    return {
      module: AuthGatewayGlobalModule,
      imports: [core],
      providers: [{ provide: AuthGatewayConfig, useValue: config }, atsRegistryProvider],
      exports: [AuthGatewayConfig, AtsRegistry, core],
    };
  }
}
