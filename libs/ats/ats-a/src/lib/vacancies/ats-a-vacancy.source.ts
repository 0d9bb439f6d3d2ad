import {
  EnrichmentCache,
  idsToFetch,
  pageLimitReached,
  type ClientOptions,
  type ListingOptions,
  type SourcePage,
  SourceRefusedError,
  type VacancyPartDeps,
  type VacancySource,
  type SourceVacancy,
} from '@connector/ats-core';
import { readId, readInt, readObject } from '@connector/ats-http';
import type { ConnectorSnapshot, RunWarningDto } from '@connector/contracts';
import { ATS_A_VACANCY_BLOCKS } from '../ats-a-vacancy-fields';
import { normalizeAtsABaseUrl } from '../client/ats-a-base-url';
import type { AtsAClient } from '../client/ats-a.client';
import type { AtsAFilter } from '../client/ats-a.types';
import { describeMissingAtsAStatuses, readAtsAPickList } from '../client/ats-a-statuses';
import {
  atsAAdvertisedUntil,
  atsAVacancyLiveness,
  DEFAULT_ATS_A_OPEN_STATUSES,
} from '../client/ats-a-vacancy';
import { atsACompany, atsAContact, atsADate } from './ats-a-records';
import { AtsAOpenStatuses } from './ats-a-open-statuses';

/** ats-a.md: 100 a page keeps each enrichment call to one page of ids. */
const ATS_A_PAGE_SIZE = 100;
/** Contacts / companies remembered per run; beyond that the least recently used is fetched again if needed. */
const ATS_A_ENRICHMENT_CACHE = 5_000;

type AtsARecord = Record<string, unknown>;

/**
 * ATS-A: the open status names are turned into the ATS's ids (dropdown 50, cached per connector), then
 * `vacancies/search` page by page. A full listing asks for open, on-site vacancies; a changes-only listing
 * asks for every vacancy modified since the anchor, whatever its status, and decides here which are live and
 * which are not any more (closed status, hidden, advertising ended or not started). Live ones are enriched
 * with one `contacts/search` and one `companies/search` per page (`In` on ids the run has not fetched yet).
 */
export class AtsAVacancySource implements VacancySource {
  readonly defaultOpenStatuses = DEFAULT_ATS_A_OPEN_STATUSES;
  readonly atsType = 'ats-a';

  constructor(
    private readonly deps: VacancyPartDeps<AtsAClient>,
    /** The connectors' status lists, kept for the process (one call a day per connector). */
    private readonly statuses = new AtsAOpenStatuses(),
  ) {}

  /** The customer's own system: its base address (several connectors may share one). */
  systemOf(connector: ConnectorSnapshot): string {
    const baseUrl = connector.config['baseUrl'];
    try {
      return `ats-a:${normalizeAtsABaseUrl(String(baseUrl))}`;
    } catch {
      return `ats-a:${connector.id}`;
    }
  }

  async *listLive(
    connector: ConnectorSnapshot,
    options: ListingOptions,
    clientOptions: ClientOptions,
  ): AsyncGenerator<SourcePage, void, undefined> {
    const client = this.deps.client(connector, clientOptions);
    const resolved = await this.statuses.resolve(connector.id, client, options.openStatuses);
    if (resolved.ids.length === 0) {
      throw new SourceRefusedError(describeMissingAtsAStatuses(resolved.missing, resolved.offered));
    }
    const warnings: RunWarningDto[] =
      resolved.missing.length > 0
        ? [
            {
              code: 'UNKNOWN_STATUSES',
              message: `${describeMissingAtsAStatuses(resolved.missing, resolved.offered)} This run listed the vacancies with the other open statuses only.`,
            },
          ]
        : [];
    const contacts = cacheOf(options, 'ats-a:contacts');
    const companies = cacheOf(options, 'ats-a:companies');
    const pageSize = options.pageSize ?? ATS_A_PAGE_SIZE;
    const pages = client.searchPages<AtsARecord>('vacancies', {
      pageSize,
      startPage: options.after + 1,
      filters: listingFilters({ since: options.since, openStatusIds: resolved.ids }),
      responseBlocks: [...ATS_A_VACANCY_BLOCKS],
    });
    let pagesSeen = 0;
    const { maxPages } = options;
    for await (const page of pages) {
      // The host's TotalPages is not trusted beyond the run's bound (page numbers carry over a resume).
      if (maxPages !== undefined && page.page > maxPages) throw pageLimitReached(maxPages);
      pagesSeen += 1;
      const { live, closed } = splitByLiveness(page.records, resolved.ids, options.now);
      // One call per resource for the page, both at once, for live vacancies only.
      await Promise.all([
        this.enrich(client, 'contacts', 'Contact.ContactId', live, 'Contact', contacts, 'ContactId'),
        this.enrich(client, 'companies', 'Company.CompanyId', live, 'Company', companies, 'CompanyId'),
      ]);
      yield {
        after: page.page,
        read: page.records.length,
        vacancies: live.map((v) => toSourceVacancy(v, contacts, companies, options.now)),
        closed,
        ...(pagesSeen === 1 && warnings.length > 0 ? { warnings } : {}),
      };
      // At the bound with more announced: stop before asking for them (no call spent on a page not read).
      if (maxPages !== undefined && page.page >= maxPages && page.page < page.totalPages) {
        throw pageLimitReached(maxPages);
      }
    }
    if (pagesSeen > 0 || options.after > 0) return;
    // Nothing at all from the start of a complete listing: see whether the ATS holds any advertised vacancy.
    if (!options.since) {
      const onSite = await countOnSite(client);
      if (onSite > 0) {
        warnings.push({
          code: 'EMPTY_LISTING',
          message:
            `The run asked ATS-A for vacancies with the statuses ${quoted(options.openStatuses)} that are on the ` +
            `careers site and got none, although ATS-A has ${onSite} vacanc${onSite === 1 ? 'y' : 'ies'} on the ` +
            `careers site with other statuses. Check the connector's open statuses against the statuses your ` +
            `recruiters use in ATS-A.`,
        });
      }
    }
    if (warnings.length > 0) yield { after: 0, read: 0, vacancies: [], closed: [], warnings };
  }

  /**
   * Page numbers over a set that changes during the run: a vacancy an earlier page listed that is closed,
   * hidden or deleted before the next page is read moves every later one back a place, and one is never
   * listed. So before a full run closes by absence, it asks here about the absent ones by id (`In` on
   * `Vacancy.VacancyId`, one call per 100 ids, same blocks as the listing so an unchanged one hashes the same):
   * the live ones come back enriched, to be kept; the others, and ids the ATS has not any more, are `closed`.
   */
  async recheck(
    connector: ConnectorSnapshot,
    externalIds: readonly string[],
    options: Pick<ListingOptions, 'openStatuses' | 'now' | 'caches'>,
    clientOptions: ClientOptions,
  ): Promise<Omit<SourcePage, 'after'>> {
    const client = this.deps.client(connector, clientOptions);
    const resolved = await this.statuses.resolve(connector.id, client, options.openStatuses);
    if (resolved.ids.length === 0) {
      throw new SourceRefusedError(describeMissingAtsAStatuses(resolved.missing, resolved.offered));
    }
    // ATS-A ids are integers: anything else cannot be asked about (and is closed: the ATS cannot have it).
    const ids = [...new Set(externalIds.map(Number))].filter((id) => Number.isSafeInteger(id) && id > 0);
    const records: unknown[] = [];
    for (let i = 0; i < ids.length; i += ATS_A_PAGE_SIZE) {
      const batch = ids.slice(i, i + ATS_A_PAGE_SIZE);
      const result = await client.search<unknown>('vacancies', {
        Paging: { RecordsPerPage: batch.length, RequestedPage: 1 },
        Filters: [{ Route: 'Vacancy.VacancyId', Operation: 'In', Value: batch }],
        ResponseBlocks: [...ATS_A_VACANCY_BLOCKS],
      });
      records.push(...result.Records);
    }
    const contacts = cacheOf(options, 'ats-a:contacts');
    const companies = cacheOf(options, 'ats-a:companies');
    const { live } = splitByLiveness(records, resolved.ids, options.now);
    await Promise.all([
      this.enrich(client, 'contacts', 'Contact.ContactId', live, 'Contact', contacts, 'ContactId'),
      this.enrich(client, 'companies', 'Company.CompanyId', live, 'Company', companies, 'CompanyId'),
    ]);
    const vacancies = live.map((v) => toSourceVacancy(v, contacts, companies, options.now));
    const kept = new Set(vacancies.map((v) => v.externalId));
    return { read: records.length, vacancies, closed: externalIds.filter((id) => !kept.has(id)) };
  }

  private async enrich(
    client: AtsAClient,
    resource: 'contacts' | 'companies',
    route: string,
    vacancies: AtsARecord[],
    link: 'Contact' | 'Company',
    cache: EnrichmentCache<AtsARecord>,
    idField: 'ContactId' | 'CompanyId',
  ): Promise<void> {
    const ids = vacancies.map((v) => linkId(v[link]));
    for (const batch of idsToFetch(ids, cache, ATS_A_PAGE_SIZE)) {
      const result = await client.search<unknown>(resource, {
        Paging: { RecordsPerPage: batch.length, RequestedPage: 1 },
        Filters: [{ Route: route, Operation: 'In', Value: batch }],
      });
      for (const item of result.Records) {
        const record = readObject(item);
        const id = readInt(record?.[idField]);
        if (record && id !== undefined) cache.set(id, record);
      }
    }
  }
}

/** Live vacancies (to publish) and the external ids of the others (to close when published). */
export function splitByLiveness(
  records: readonly unknown[],
  openStatusIds: readonly number[],
  now: Date,
): { live: AtsARecord[]; closed: string[] } {
  const live: AtsARecord[] = [];
  const closed: string[] = [];
  for (const item of records) {
    const record = readObject(item);
    const externalId = readId(record?.['VacancyId']);
    if (!record || externalId === undefined) continue; // not identifiable: nothing to publish or close
    if (atsAVacancyLiveness(record, openStatusIds, now).live) live.push(record);
    else closed.push(externalId);
  }
  return { live, closed };
}

function cacheOf(options: Pick<ListingOptions, 'caches'>, name: string): EnrichmentCache<AtsARecord> {
  const existing = options.caches?.get(name);
  if (existing) return existing as EnrichmentCache<AtsARecord>;
  const cache = new EnrichmentCache<AtsARecord>(ATS_A_ENRICHMENT_CACHE);
  options.caches?.set(name, cache as EnrichmentCache<unknown>);
  return cache;
}

/**
 * A full listing asks the ATS for open, on-site vacancies (by status Id: a status name matches nothing); a
 * changes-only listing asks for everything modified since the anchor, so it also sees what was closed or hidden.
 */
export function listingFilters(options: { since?: Date; openStatusIds: readonly number[] }): AtsAFilter[] {
  if (options.since) {
    return [
      { Route: 'Vacancy.ModificationDate', Operation: 'GreaterThan', Value: options.since.toISOString() },
    ];
  }
  return [
    { Route: 'Vacancy.VacancyStatus', Operation: 'In', Value: [...options.openStatusIds] },
    { Route: 'Vacancy.IncludeOnSite', Operation: 'Equals', Value: true },
  ];
}

/** How many vacancies the ATS has on its careers site, whatever their status: one call, one record. */
async function countOnSite(client: AtsAClient): Promise<number> {
  const result = await client.search<unknown>('vacancies', {
    Paging: { RecordsPerPage: 1, RequestedPage: 1 },
    Filters: [{ Route: 'Vacancy.IncludeOnSite', Operation: 'Equals', Value: true }],
    ResponseBlocks: ['VacancyId'],
  });
  return result.TotalPages; // one record a page: the number of pages is the number of matches
}

function linkId(value: unknown): number | undefined {
  return readAtsAPickList(value).id;
}

function quoted(list: readonly string[]): string {
  return list.map((s) => `“${s}”`).join(', ');
}

/** The vacancy as the job mapping reads it: Company and Contact replaced by the enriched records. */
export function toSourceVacancy(
  vacancy: AtsARecord,
  contacts: EnrichmentCache<AtsARecord>,
  companies: EnrichmentCache<AtsARecord>,
  now: Date,
): SourceVacancy {
  const contactId = linkId(vacancy['Contact']);
  const companyId = linkId(vacancy['Company']);
  const contactRecord = contactId !== undefined ? contacts.get(contactId) : undefined;
  const companyRecord = companyId !== undefined ? companies.get(companyId) : undefined;
  const contact = atsAContact(contactRecord);
  const company = atsACompany(companyRecord);
  const liveUntil = atsAAdvertisedUntil(vacancy);
  return {
    externalId: readId(vacancy['VacancyId']) as string,
    record: { ...vacancy, Contact: contactRecord ?? null, Company: companyRecord ?? null },
    ...(contact ? { contact } : {}),
    ...(company ? { company } : {}),
    updatedAt: atsADate(vacancy['ModificationDate'], now),
    ...(liveUntil ? { liveUntil } : {}),
  };
}
