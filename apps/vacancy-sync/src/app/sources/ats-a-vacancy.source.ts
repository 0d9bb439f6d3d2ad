import { Injectable } from '@nestjs/common';
import { AtsClientFactory, type ClientOptions } from '@connector/ats-access';
import {
  type AtsAClient,
  type AtsACompany,
  type AtsAContact,
  type AtsAFilter,
  type AtsAVacancy,
  isLiveAtsAVacancy,
} from '@connector/ats-clients';
import type { ConnectorSnapshot } from '@connector/contracts';
import type { SourceVacancy } from '../vacancies/vacancy-content';
import { atsACompany, atsAContact, atsADate } from './ats-a-records';
import { EnrichmentCache, idsToFetch } from './enrichment-cache';
import { readAhead } from './read-ahead';
import type { ListingOptions, SourcePage, VacancySource } from './vacancy-source';

/** ats-a.md: 100 a page keeps each enrichment call to one page of ids. */
export const ATS_A_PAGE_SIZE = 100;
/** Contacts / companies remembered per run; beyond that the least recently used is fetched again if needed. */
export const ATS_A_ENRICHMENT_CACHE = 5_000;

const VACANCY_BLOCKS = [
  'VacancyId',
  'Title',
  'VacancyStatus',
  'Location',
  'Company',
  'Contact',
  'Salary',
  'Description',
  'Requirements',
  'IncludeOnSite',
  'DatePosted',
  'AdvertisingEndDate',
  'CreationDate',
  'ModificationDate',
];

/**
 * ATS-A: `vacancies/search` page by page (open statuses and IncludeOnSite filtered by the ATS, the advertising
 * dates checked here), then one `contacts/search` and one `companies/search` per page with `In` on the ids the
 * run has not fetched yet.
 */
@Injectable()
export class AtsAVacancySource implements VacancySource {
  readonly atsType = 'ats-a' as const;

  constructor(private readonly clients: AtsClientFactory) {}

  async *listLive(
    connector: ConnectorSnapshot,
    options: ListingOptions,
    clientOptions: ClientOptions,
  ): AsyncGenerator<SourcePage, void, undefined> {
    const client = this.clients.atsA(connector, clientOptions);
    const contacts = cacheOf<AtsAContact>(options, 'ats-a:contacts');
    const companies = cacheOf<AtsACompany>(options, 'ats-a:companies');
    const pageSize = options.pageSize ?? ATS_A_PAGE_SIZE;
    const pages = readAhead(
      client.searchPages<AtsAVacancy>('vacancies', {
        pageSize,
        startPage: options.after + 1,
        filters: listingFilters(options),
        responseBlocks: VACANCY_BLOCKS,
      }),
    );
    for await (const page of pages) {
      const live = page.records.filter((v) => isLiveAtsAVacancy(v, options.openStatuses, options.now));
      // One call per resource for the page, both at once.
      await Promise.all([
        this.enrich(
          client,
          'contacts',
          'Contact.ContactId',
          live.map((v) => v.Contact?.Id),
          contacts,
          (c) => c.ContactId,
        ),
        this.enrich(
          client,
          'companies',
          'Company.CompanyId',
          live.map((v) => v.Company?.Id),
          companies,
          (c) => c.CompanyId,
        ),
      ]);
      yield {
        after: page.page,
        read: page.records.length,
        vacancies: live.map((v) => toSourceVacancy(v, contacts, companies, options.now)),
        closed: [],
      };
    }
  }

  private async enrich<T>(
    client: AtsAClient,
    resource: 'contacts' | 'companies',
    route: string,
    ids: Array<number | undefined>,
    cache: EnrichmentCache<T>,
    idOf: (record: T) => number,
  ): Promise<void> {
    for (const batch of idsToFetch(ids, cache, ATS_A_PAGE_SIZE)) {
      const result = await client.search<T>(resource, {
        Paging: { RecordsPerPage: batch.length, RequestedPage: 1 },
        Filters: [{ Route: route, Operation: 'In', Value: batch }],
      });
      for (const record of result.Records) cache.set(idOf(record), record);
    }
  }
}

function cacheOf<T>(options: ListingOptions, name: string): EnrichmentCache<T> {
  const existing = options.caches?.get(name);
  if (existing) return existing as EnrichmentCache<T>;
  const cache = new EnrichmentCache<T>(ATS_A_ENRICHMENT_CACHE);
  options.caches?.set(name, cache as EnrichmentCache<unknown>);
  return cache;
}

export function listingFilters(options: Pick<ListingOptions, 'since' | 'openStatuses'>): AtsAFilter[] {
  return [
    { Route: 'Vacancy.VacancyStatus', Operation: 'In', Value: [...options.openStatuses] },
    { Route: 'Vacancy.IncludeOnSite', Operation: 'Equals', Value: true },
    ...(options.since
      ? [
          {
            Route: 'Vacancy.ModificationDate',
            Operation: 'GreaterThan' as const,
            Value: options.since.toISOString(),
          },
        ]
      : []),
  ];
}

function toSourceVacancy(
  vacancy: AtsAVacancy,
  contacts: EnrichmentCache<AtsAContact>,
  companies: EnrichmentCache<AtsACompany>,
  now: Date,
): SourceVacancy {
  const contact = vacancy.Contact ? contacts.get(vacancy.Contact.Id) : undefined;
  const company = vacancy.Company ? companies.get(vacancy.Company.Id) : undefined;
  return {
    externalId: String(vacancy.VacancyId),
    record: { ...vacancy, Contact: contact ?? null, Company: company ?? null },
    ...(contact ? { contact: atsAContact(contact) } : {}),
    ...(company ? { company: atsACompany(company) } : {}),
    updatedAt: atsADate(vacancy.ModificationDate, now),
  };
}
