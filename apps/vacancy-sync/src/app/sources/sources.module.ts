import { Module } from '@nestjs/common';
import { AtsAVacancySource } from './ats-a-vacancy.source';
import { AtsBVacancySource } from './ats-b-vacancy.source';
import { VacancySources } from './vacancy-sources';

@Module({
  providers: [AtsAVacancySource, AtsBVacancySource, VacancySources],
  exports: [VacancySources],
})
export class SourcesModule {}
