import { AtsBVacancyEventSource } from '@connector/ats-b';
import { atsRegistry } from '@connector/ats-registry';
import { VacancyEventSources } from './vacancy-event-sources';

describe(VacancyEventSources.name, () => {
  // The adapters' event sources, built without clients: only their `atsType` is read here.
  const sut = VacancyEventSources.of(atsRegistry, { client: () => undefined });

  it('has an event source for every registered ATS that declares vacancy-events', () => {
    expect(sut.missing()).toEqual([]);
    expect(new VacancyEventSources(atsRegistry).missing()).toEqual(['ats-b']);
  });

  it('answers none for an ATS without events (its feed is off)', () => {
    expect(sut.find('ats-a')).toBeUndefined();
    expect(sut.find('no-such-ats')).toBeUndefined();
    expect(sut.find('ats-b')).toBeInstanceOf(AtsBVacancyEventSource);
  });
});
