import type { VacancyUpsert } from './vacancy-content';

/** What vacancy_state says of a vacancy: the hash last published and whether it is live on the platform. */
export interface PublishedState {
  contentHash: string;
  live: boolean;
}

export interface PageDiff {
  /** New, changed, or back after having been closed: published. */
  upserts: VacancyUpsert[];
  /** Live and the same as published: only marked as seen. */
  unchanged: VacancyUpsert[];
}

/**
 * Splits a page of live vacancies into those to publish and those already published as they are. A vacancy
 * that appears twice in a page counts once (the later copy wins).
 */
export function diffPage(
  vacancies: VacancyUpsert[],
  published: ReadonlyMap<string, PublishedState>,
): PageDiff {
  const byId = new Map<string, VacancyUpsert>();
  for (const vacancy of vacancies) byId.set(vacancy.externalId, vacancy);
  const diff: PageDiff = { upserts: [], unchanged: [] };
  for (const vacancy of byId.values()) {
    const before = published.get(vacancy.externalId);
    if (before && before.live && before.contentHash === vacancy.contentHash) diff.unchanged.push(vacancy);
    else diff.upserts.push(vacancy);
  }
  return diff;
}

/** Closing is decided only by a complete full listing; an incremental or unfinished run never closes. */
export function mayClose(run: { mode: 'full' | 'incremental'; listingComplete: boolean }): boolean {
  return run.mode === 'full' && run.listingComplete;
}

/**
 * Whether a run looks for published vacancies past their last advertised day: once a UTC day a connector
 * (an advertisement ends with a day, and a run that lists one already past it does not publish it). The
 * first run of a day does it: no success yet, or the last success started on an earlier day.
 */
export function expiryCheckDue(lastSuccessStartedAt: Date | undefined, now: Date): boolean {
  if (!lastSuccessStartedAt) return true;
  return lastSuccessStartedAt.toISOString().slice(0, 10) < now.toISOString().slice(0, 10);
}
