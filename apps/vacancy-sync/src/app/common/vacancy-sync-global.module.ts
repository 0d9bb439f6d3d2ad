import { type DynamicModule, Global, Module } from '@nestjs/common';
import { AtsAccessModule } from '@connector/ats-client-factory';
import { VacancySyncConfig } from '../vacancy-sync.config';

/**
 * What every feature of vacancy-sync may inject: the validated config, the service core (Postgres, RabbitMQ) and ATS access.
 * Global, so a feature injects these without importing a module; AppModule.forRoot builds it once at boot.
 */
@Global()
@Module({})
export class VacancySyncGlobalModule {
  static forRoot(config: VacancySyncConfig, core: DynamicModule): DynamicModule {
    const atsAccess = AtsAccessModule.forRoot(core, { allowance: config.ALLOW_PRIVATE_ADDRESSES });
    return {
      module: VacancySyncGlobalModule,
      imports: [core, atsAccess],
      providers: [{ provide: VacancySyncConfig, useValue: config }],
      exports: [VacancySyncConfig, core, atsAccess],
    };
  }
}
