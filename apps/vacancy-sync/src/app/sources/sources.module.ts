import { Module } from '@nestjs/common';
import { AtsAOpenStatuses } from './ats-a-open-statuses';
import { AtsAVacancySource } from './ats-a-vacancy.source';
import { AtsBVacancySource } from './ats-b-vacancy.source';
import { VacancySources } from './vacancy-sources';

@Module({
  providers: [AtsAOpenStatuses, AtsAVacancySource, AtsBVacancySource, VacancySources],
  exports: [VacancySources],
})
export class SourcesModule {}
