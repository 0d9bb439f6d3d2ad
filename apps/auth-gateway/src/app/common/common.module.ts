import { type DynamicModule, Global, Module } from '@nestjs/common';
import { AuthGatewayConfig } from '../auth-gateway.config';

/** The validated config for every feature, injected by its class as in every service. */
@Global()
@Module({})
export class CommonModule {
  static forRoot(config: AuthGatewayConfig): DynamicModule {
    return {
      module: CommonModule,
      providers: [{ provide: AuthGatewayConfig, useValue: config }],
      exports: [AuthGatewayConfig],
    };
  }
}
