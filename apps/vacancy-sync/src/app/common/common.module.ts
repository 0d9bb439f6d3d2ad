import { type DynamicModule, Module } from '@nestjs/common';
import { AtsAccessModule } from '@connector/ats-access';
import { VacancySyncConfig } from '../vacancy-sync.config';

/**
 * What the features of vacancy-sync import: the validated config, the service core (Postgres, RabbitMQ) and ATS access.
 * AppModule.forRoot fills it in once at boot (one service per process), so a feature imports the class itself.
 */
@Module({})
export class CommonModule {
  static forRoot(config: VacancySyncConfig, core: DynamicModule): typeof CommonModule {
    const atsAccess = AtsAccessModule.forRoot(core, { allowance: config.ALLOW_PRIVATE_ADDRESSES });
    Module({
      imports: [core, atsAccess],
      providers: [{ provide: VacancySyncConfig, useValue: config }],
      exports: [VacancySyncConfig, core, atsAccess],
    })(CommonModule);
    return CommonModule;
  }
}
