import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { VacancySyncConfig } from '../vacancy-sync.config';

export const VACANCY_SYNC_CONFIG = Symbol('VACANCY_SYNC_CONFIG');

/** The validated config for every feature (the RpcClient comes from MessagingModule). */
@Global()
@Module({})
export class CommonModule {
  static forRoot(config: VacancySyncConfig): DynamicModule {
    return {
      module: CommonModule,
      providers: [{ provide: VACANCY_SYNC_CONFIG, useValue: config }],
      exports: [VACANCY_SYNC_CONFIG],
    };
  }
}
