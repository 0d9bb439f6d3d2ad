import { isLiveAtsAVacancy, DEFAULT_ATS_A_OPEN_STATUSES } from './ats-a-vacancy';

const now = new Date('2026-03-10T12:00:00Z');
const live = {
  VacancyStatus: { Id: 1, Description: 'Open' },
  IncludeOnSite: true,
  DatePosted: '2026-03-01T00:00:00Z',
  AdvertisingEndDate: '2026-03-31T00:00:00Z',
};

describe(isLiveAtsAVacancy.name, () => {
  it.each([
    ['open, on site, within dates', {}, true],
    ['Live status', { VacancyStatus: { Id: 2, Description: 'Live' } }, true],
    ['status in another case', { VacancyStatus: { Id: 1, Description: ' open ' } }, true],
    ['closed status', { VacancyStatus: { Id: 4, Description: 'Closed' } }, false],
    ['not on site', { IncludeOnSite: false }, false],
    ['no dates: open-ended', { DatePosted: null, AdvertisingEndDate: null }, true],
    ['posted later', { DatePosted: '2026-03-11T00:00:00Z' }, false],
    ['posted today, later in the day', { DatePosted: '2026-03-10T18:00:00Z' }, true],
    ['advert ended yesterday', { AdvertisingEndDate: '2026-03-09T23:59:59Z' }, false],
    ['advert ends today (midnight)', { AdvertisingEndDate: '2026-03-10T00:00:00Z' }, true],
    ['date without zone', { DatePosted: '2026-03-10', AdvertisingEndDate: '2026-03-10T00:00:00' }, true],
    ['unreadable date', { AdvertisingEndDate: 'soon' }, false],
  ])('%s → %s', (_name, change, expected) => {
    expect(isLiveAtsAVacancy({ ...live, ...change }, DEFAULT_ATS_A_OPEN_STATUSES, now)).toBe(expected);
  });

  it('uses the configured open statuses', () => {
    const onHold = { ...live, VacancyStatus: { Id: 3, Description: 'On Hold' } };
    expect(isLiveAtsAVacancy(onHold, ['Open'], now)).toBe(false);
    expect(isLiveAtsAVacancy(onHold, ['On Hold'], now)).toBe(true);
    expect(isLiveAtsAVacancy(live, [], now)).toBe(false);
  });
});
