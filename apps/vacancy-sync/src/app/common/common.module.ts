import { type DynamicModule, Global, Module } from '@nestjs/common';
import { VacancySyncConfig } from '../vacancy-sync.config';

/** The validated config for every feature (the RpcClient comes from MessagingModule). */
@Global()
@Module({})
export class CommonModule {
  static forRoot(config: VacancySyncConfig): DynamicModule {
    return {
      module: CommonModule,
      providers: [{ provide: VacancySyncConfig, useValue: config }],
      exports: [VacancySyncConfig],
    };
  }
}
