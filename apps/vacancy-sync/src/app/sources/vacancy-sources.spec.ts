import { AtsRegistry, MissingAtsPartError } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import { FAKE_ATS, fakeAtsAdapter } from '@connector/ats-testing';
import { VacancySources } from './vacancy-sources';

describe(VacancySources.name, () => {
  // The adapters' sources, built without clients: only their `atsType` is read here.
  const sut = VacancySources.of(atsRegistry, { client: () => undefined });

  it('has a source for every registered ATS whose capabilities declare vacancies', () => {
    expect(sut.missing()).toEqual([]);
    for (const type of atsRegistry.typesWith('vacancies')) expect(sut.for(type).atsType).toBe(type);
  });

  it('names a registered ATS that declares vacancies but has no vacancySource on its adapter (the check above can fail)', () => {
    const withFake = VacancySources.of(new AtsRegistry([...atsRegistry.all(), fakeAtsAdapter]), {
      client: () => undefined,
    });
    expect(withFake.missing()).toEqual([FAKE_ATS]);
    expect(() => withFake.for(FAKE_ATS)).toThrow(MissingAtsPartError);
  });
});
