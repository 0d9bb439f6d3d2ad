import { Module } from '@nestjs/common';
import { AtsAOpenStatuses } from './ats-a-open-statuses';
import { AtsAVacancySource } from './ats-a-vacancy.source';
import { AtsBVacancySource } from './ats-b-vacancy.source';
import type { VacancySource } from './vacancy-source';
import { VacancySources } from './vacancy-sources';

/** One vacancy source per ATS that declares `vacancies`: the service's part of each adapter. */
export const VACANCY_SOURCES = [AtsAVacancySource, AtsBVacancySource];

@Module({
  providers: [
    AtsAOpenStatuses,
    ...VACANCY_SOURCES,
    {
      provide: VacancySources,
      inject: VACANCY_SOURCES,
      useFactory: (...sources: VacancySource[]) => new VacancySources(...sources),
    },
  ],
  exports: [VacancySources],
})
export class SourcesModule {}
