import type { ConnectorSnapshot } from '@connector/contracts';
import type { JobMapping } from '@connector/job-mapping';
import type { SourcePage } from '@connector/ats-core';
import { buildVacancyUpsert, type VacancyUpsert } from './vacancy-content';
import { diffPage, type PublishedState } from './vacancy-diff';

/** What a page (of a run's listing, or of an event batch's job orders read again) publishes and commits. */
export interface PageDecision {
  /** New or changed content: `vacancy.upserted`. */
  upserts: VacancyUpsert[];
  /** Live and as published: only marked seen. */
  unchanged: VacancyUpsert[];
  /** Published and not live any more (the ATS says so, or the mapping's publish lists leave it out): `vacancy.closed`. */
  closing: string[];
  /** The last day each live vacancy is advertised. */
  liveUntil: Map<string, string>;
}

/**
 * The one decision runs and the event feed share: the page's vacancies mapped (the connector's mapping), what
 * the ATS says is not live or the mapping leaves out closed if published, and the rest compared with the
 * hashes last published (`vacancy_state`), so a page read twice publishes nothing the second time.
 */
export async function decidePage(
  connector: Pick<ConnectorSnapshot, 'id' | 'type'>,
  mapping: JobMapping,
  page: Pick<SourcePage, 'vacancies' | 'closed'>,
  published: (externalIds: string[]) => Promise<ReadonlyMap<string, PublishedState>>,
): Promise<PageDecision> {
  const built = page.vacancies.map((v) => ({
    externalId: v.externalId,
    upsert: buildVacancyUpsert(connector.id, connector.type, mapping, v),
  }));
  const vacancies = built.map((b) => b.upsert).filter((v): v is VacancyUpsert => v !== undefined);
  const liveUntil = new Map(
    page.vacancies.flatMap((v) => (v.liveUntil ? [[v.externalId, v.liveUntil] as const] : [])),
  );
  // Not live by the ATS's fields, or left out by the mapping's publish lists: closed if published.
  const liveIds = new Set(vacancies.map((v) => v.externalId));
  const notLive = [
    ...new Set([...page.closed, ...built.filter((b) => !b.upsert).map((b) => b.externalId)]),
  ].filter((id) => !liveIds.has(id));
  const states = await published([...liveIds, ...notLive]);
  const diff = diffPage(vacancies, states);
  const closing = notLive.filter((id) => states.get(id)?.live === true);
  return { upserts: diff.upserts, unchanged: diff.unchanged, closing, liveUntil };
}
