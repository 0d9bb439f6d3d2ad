import { Injectable } from '@nestjs/common';
import { atsRegistry } from '@connector/ats-registry';
import { AtsAVacancySource } from './ats-a-vacancy.source';
import { AtsBVacancySource } from './ats-b-vacancy.source';
import type { VacancySource } from './vacancy-source';

/** The one place that picks the source of an ATS type; a third ATS adds a source and a case here. */
@Injectable()
export class VacancySources {
  constructor(
    private readonly atsA: AtsAVacancySource,
    private readonly atsB: AtsBVacancySource,
  ) {}

  for(type: string): VacancySource {
    switch (type) {
      case 'ats-a':
        return this.atsA;
      case 'ats-b':
        return this.atsB;
      default:
        throw new Error(`no vacancy source for ${atsRegistry.get(type).type}`);
    }
  }
}
