import { MissingAtsPartError } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import { FAKE_ATS, fakeAtsAdapter } from '@connector/ats-testing';
import { VACANCY_SOURCES } from './sources.module';
import type { VacancySource } from './vacancy-source';
import { VacancySources } from './vacancy-sources';

describe(VacancySources.name, () => {
  // The module's sources, built without their dependencies: only their `atsType` is read here.
  const sut = new VacancySources(
    ...VACANCY_SOURCES.map((Source) => new (Source as new (...deps: unknown[]) => VacancySource)()),
  );

  it('has a source for every registered ATS whose capabilities declare vacancies', () => {
    expect(sut.missing()).toEqual([]);
    for (const type of atsRegistry.typesWith('vacancies')) expect(sut.for(type).atsType).toBe(type);
  });

  it('names a registered ATS that declares vacancies but has no source (the check above can fail)', () => {
    atsRegistry.register(fakeAtsAdapter);
    expect(sut.missing()).toEqual([FAKE_ATS]);
    expect(() => sut.for(FAKE_ATS)).toThrow(MissingAtsPartError);
  });
});
