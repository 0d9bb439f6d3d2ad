import { AtsParts } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import type { VacancySource } from './vacancy-source';

/**
 * The vacancy source of an ATS type, looked up by the type each source names: a third ATS adds its source to
 * the module's list (`VACANCY_SOURCES`), no case here. An ATS whose capabilities lack `vacancies` has none.
 */
export class VacancySources {
  private readonly parts: AtsParts<VacancySource>;

  constructor(...sources: VacancySource[]) {
    this.parts = new AtsParts('vacancy source', atsRegistry, sources, 'vacancies');
  }

  for(type: string): VacancySource {
    return this.parts.get(type);
  }

  /** Registered ATSs that declare vacancies and have no source here (a test keeps it empty). */
  missing(): string[] {
    return this.parts.missing();
  }
}
