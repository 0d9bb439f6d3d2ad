import { type DynamicModule, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';

/** `/health`; `messaging` is the service's MessagingModule, whose connection the readiness check asks. */
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
})
export class HealthModule {
  static forRoot(messaging: DynamicModule): DynamicModule {
    return { module: HealthModule, imports: [messaging] };
  }
}
