import { readBoolean, readDate, readText } from '@connector/ats-http';
import { readAtsAPickList } from './ats-a-statuses';

/** The statuses that count as open when the connector's configuration names none (ats-a.md). */
export const DEFAULT_ATS_A_OPEN_STATUSES: readonly string[] = ['Open', 'Live'];

/** Why a vacancy is not live: each is certain knowledge from the record itself. */
export type AtsANotLiveReason = 'status' | 'hidden' | 'not-yet-advertised' | 'advertising-ended';

export type AtsALiveness = { live: true } | { live: false; reason: AtsANotLiveReason };

/**
 * ats-a.md's "live": an open status (by pick-list Id: labels are per customer and resolved to ids once),
 * advertised (`IncludeOnSite` true, 1, "true"…), and today between DatePosted and AdvertisingEndDate, both
 * inclusive and open-ended when absent. "Today" is the UTC calendar day: the ATS keeps these as dates, so a
 * vacancy ending today is still live all day. Reads the record tolerantly (null or absent, text ids, dates
 * with or without offset); an unreadable date counts as outside the advertising window.
 */
export function atsAVacancyLiveness(
  record: object,
  openStatusIds: Iterable<number>,
  now: Date,
): AtsALiveness {
  const vacancy = record as Readonly<Record<string, unknown>>;
  const status = readAtsAPickList(vacancy['VacancyStatus']).id;
  if (status === undefined || !new Set(openStatusIds).has(status)) return { live: false, reason: 'status' };
  if (readBoolean(vacancy['IncludeOnSite']) !== true) return { live: false, reason: 'hidden' };
  const today = utcDay(now.getTime());
  const posted = dayOf(vacancy['DatePosted']);
  const ends = dayOf(vacancy['AdvertisingEndDate']);
  if (posted === 'invalid' || (posted !== undefined && posted > today)) {
    return { live: false, reason: 'not-yet-advertised' };
  }
  if (ends === 'invalid' || (ends !== undefined && ends < today))
    return { live: false, reason: 'advertising-ended' };
  return { live: true };
}

/** The last UTC day the vacancy is advertised (`AdvertisingEndDate`), or undefined when open-ended or unreadable. */
export function atsAAdvertisedUntil(record: object): string | undefined {
  const day = dayOf((record as Readonly<Record<string, unknown>>)['AdvertisingEndDate']);
  return day === 'invalid' ? undefined : day;
}

function dayOf(value: unknown): string | undefined | 'invalid' {
  if (value === null || value === undefined) return undefined;
  const text = readText(value);
  if (text === undefined && typeof value === 'string') return undefined; // empty text: not set
  // A date (or date-time) without a zone is UTC for ATS-A: its calendar day is written in it.
  if (text && /^\d{4}-\d{2}-\d{2}(T[\d:.]+)?$/.test(text)) {
    return Number.isNaN(Date.parse(`${text.slice(0, 10)}T00:00:00Z`)) ? 'invalid' : text.slice(0, 10);
  }
  const date = readDate(value);
  return date ? utcDay(date.getTime()) : 'invalid';
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
