import { atsAVacancyLiveness } from './ats-a-vacancy';

const now = new Date('2026-03-10T12:00:00Z');
const OPEN = 31;
const LIVE = 7;
const open = [OPEN, LIVE];
const live = {
  VacancyStatus: { Id: OPEN, Description: 'Open' },
  IncludeOnSite: true,
  DatePosted: '2026-03-01T00:00:00Z',
  AdvertisingEndDate: '2026-03-31T00:00:00Z',
};

describe(atsAVacancyLiveness.name, () => {
  it.each([
    ['open, on site, within dates', {}, true],
    ['the other open status', { VacancyStatus: { Id: LIVE, Description: 'Live' } }, true],
    ['status id as text', { VacancyStatus: { Id: '31', Description: 'Open' } }, true],
    ['status label changed, id the same', { VacancyStatus: { Id: OPEN, Description: 'Advertised' } }, true],
    ['open label, another id', { VacancyStatus: { Id: 3, Description: 'Open' } }, false],
    ['no status', { VacancyStatus: null }, false],
    ['IncludeOnSite 1', { IncludeOnSite: 1 }, true],
    ['IncludeOnSite "true"', { IncludeOnSite: 'true' }, true],
    ['IncludeOnSite "1"', { IncludeOnSite: '1' }, true],
    ['IncludeOnSite false', { IncludeOnSite: false }, false],
    ['IncludeOnSite 0', { IncludeOnSite: 0 }, false],
    ['IncludeOnSite absent', { IncludeOnSite: undefined }, false],
    ['no dates (null): open-ended', { DatePosted: null, AdvertisingEndDate: null }, true],
    ['no dates (empty text): open-ended', { DatePosted: '', AdvertisingEndDate: '' }, true],
    ['posted later', { DatePosted: '2026-03-11T00:00:00Z' }, false],
    ['posted today, later in the day', { DatePosted: '2026-03-10T18:00:00Z' }, true],
    ['advert ended yesterday', { AdvertisingEndDate: '2026-03-09T23:59:59Z' }, false],
    ['advert ends today (midnight)', { AdvertisingEndDate: '2026-03-10T00:00:00Z' }, true],
    ['dates without offset', { DatePosted: '2026-03-10', AdvertisingEndDate: '2026-03-10T00:00:00' }, true],
    ['date with another offset', { AdvertisingEndDate: '2026-03-10T01:00:00+02:00' }, false],
    ['unreadable date', { AdvertisingEndDate: 'soon' }, false],
  ])('%s → %s', (_name, change, expected) => {
    expect(atsAVacancyLiveness({ ...live, ...change }, open, now).live).toBe(expected);
  });

  it('says why a vacancy is not live', () => {
    expect(atsAVacancyLiveness({ ...live, VacancyStatus: { Id: 3 } }, open, now)).toEqual({
      live: false,
      reason: 'status',
    });
    expect(atsAVacancyLiveness({ ...live, IncludeOnSite: false }, open, now)).toEqual({
      live: false,
      reason: 'hidden',
    });
    expect(atsAVacancyLiveness({ ...live, DatePosted: '2026-04-01' }, open, now)).toEqual({
      live: false,
      reason: 'not-yet-advertised',
    });
    expect(atsAVacancyLiveness({ ...live, AdvertisingEndDate: '2026-03-01' }, open, now)).toEqual({
      live: false,
      reason: 'advertising-ended',
    });
  });

  it('uses the open status ids it is given', () => {
    expect(atsAVacancyLiveness(live, [LIVE], now).live).toBe(false);
    expect(atsAVacancyLiveness(live, [], now).live).toBe(false);
  });
});
