import { AtsBVacancyEventSource } from './ats-b-vacancy-events.source';
import { VacancyEventSources } from './vacancy-event-source';

describe(VacancyEventSources.name, () => {
  it('has an event source for every registered ATS that declares vacancy-events', () => {
    expect(new VacancyEventSources(new AtsBVacancyEventSource(undefined as never)).missing()).toEqual([]);
    expect(new VacancyEventSources().missing()).toEqual(['ats-b']);
  });

  it('answers none for an ATS without events (its feed is off)', () => {
    const sources = new VacancyEventSources(new AtsBVacancyEventSource(undefined as never));
    expect(sources.find('ats-a')).toBeUndefined();
    expect(sources.find('no-such-ats')).toBeUndefined();
    expect(sources.find('ats-b')).toBeInstanceOf(AtsBVacancyEventSource);
  });
});
