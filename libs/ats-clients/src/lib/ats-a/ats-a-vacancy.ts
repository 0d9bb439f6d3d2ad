import type { AtsAVacancy } from './ats-a.types';

/** The statuses that count as open when the connector's configuration names none (ats-a.md). */
export const DEFAULT_ATS_A_OPEN_STATUSES: readonly string[] = ['Open', 'Live'];

type LiveFields = Pick<AtsAVacancy, 'VacancyStatus' | 'IncludeOnSite' | 'DatePosted' | 'AdvertisingEndDate'>;

/**
 * ats-a.md's "live": an open status (compared without case, as the ATS does), advertised (`IncludeOnSite`),
 * and today between DatePosted and AdvertisingEndDate, both inclusive and open-ended when absent. "Today" is
 * the UTC calendar day: the ATS keeps these as dates, so a vacancy ending today is still live all day.
 */
export function isLiveAtsAVacancy(vacancy: LiveFields, openStatuses: readonly string[], now: Date): boolean {
  const status = vacancy.VacancyStatus?.Description?.trim().toLowerCase();
  if (!status || !openStatuses.some((s) => s.trim().toLowerCase() === status)) return false;
  if (vacancy.IncludeOnSite !== true) return false;
  const today = utcDay(now.getTime());
  const posted = dayOf(vacancy.DatePosted);
  const ends = dayOf(vacancy.AdvertisingEndDate);
  if (posted === 'invalid' || ends === 'invalid') return false;
  if (posted !== undefined && posted > today) return false;
  if (ends !== undefined && ends < today) return false;
  return true;
}

function dayOf(value: string | null | undefined): string | undefined | 'invalid' {
  const text = value?.trim();
  if (!text) return undefined;
  // A date (or date-time) without a zone is UTC for ATS-A: its calendar day is written in it.
  if (/^\d{4}-\d{2}-\d{2}(T[\d:.]+)?$/.test(text)) {
    return Number.isNaN(Date.parse(`${text.slice(0, 10)}T00:00:00Z`)) ? 'invalid' : text.slice(0, 10);
  }
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? 'invalid' : utcDay(ms);
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
