import { Injectable } from '@nestjs/common';
import { AtsClientFactory, type ClientOptions } from '@connector/ats-access';
import { ATS_B_MAX_IDS_PER_GET, ATS_B_MAX_SEARCH_COUNT, type AtsBJobOrder } from '@connector/ats-clients';
import type { ConnectorSnapshot, VacancyCompanyDto, VacancyContactDto } from '@connector/contracts';
import type { SourceVacancy } from '../vacancies/vacancy-content';
import { readAhead } from './read-ahead';
import type { ListingOptions, SourcePage, VacancySource } from './vacancy-source';

/** Every JobOrder field a mapping may read (libs/job-mapping source paths), plus what "live" needs. */
export const ATS_B_JOB_FIELDS = [
  'id',
  'title',
  'address',
  'publicDescription',
  'description',
  'skillList',
  'employmentType',
  'status',
  'isOpen',
  'isPublic',
  'isDeleted',
  'dateAdded',
  'dateLastModified',
  'clientCorporation',
  'clientContact',
];

/**
 * ATS-B: open job ids from `search/JobOrder` (keyset pages by id), then their details with
 * `entity/JobOrder/{ids}` in batches; public ones only. Incremental by `dateLastModified`.
 */
@Injectable()
export class AtsBVacancySource implements VacancySource {
  readonly atsType = 'ats-b' as const;

  constructor(private readonly clients: AtsClientFactory) {}

  async *listLive(
    connector: ConnectorSnapshot,
    options: ListingOptions,
    clientOptions: ClientOptions,
  ): AsyncGenerator<SourcePage, void, undefined> {
    const client = this.clients.atsB(connector, clientOptions);
    const pages = readAhead(
      client.jobOrderIdPages({
        pageSize: options.pageSize ?? ATS_B_MAX_SEARCH_COUNT,
        afterId: options.after,
        ...(options.since ? { modifiedSince: options.since } : {}),
      }),
    );
    for await (const ids of pages) {
      // The page's entity reads (ATS_B_MAX_IDS_PER_GET ids each) at once; the budget still meters each.
      const batches: number[][] = [];
      for (let i = 0; i < ids.length; i += ATS_B_MAX_IDS_PER_GET)
        batches.push(ids.slice(i, i + ATS_B_MAX_IDS_PER_GET));
      const jobs = (
        await Promise.all(batches.map((batch) => client.getJobOrders(batch, ATS_B_JOB_FIELDS)))
      ).flat();
      yield {
        after: Math.max(...ids),
        read: jobs.length,
        vacancies: jobs.filter(isLiveAtsBJob).map((job) => toSourceVacancy(job, options.now)),
        closed: [],
      };
    }
  }
}

/** Open, public and not deleted (the search already asks for open and not deleted; checked again here). */
export function isLiveAtsBJob(job: AtsBJobOrder): boolean {
  return job.isOpen !== false && job.isPublic === true && job.isDeleted !== true;
}

function toSourceVacancy(job: AtsBJobOrder, now: Date): SourceVacancy {
  const contact = atsBContact(job);
  const company = atsBCompany(job);
  return {
    externalId: String(job.id),
    record: job as unknown as Record<string, unknown>,
    ...(contact ? { contact } : {}),
    ...(company ? { company } : {}),
    updatedAt: new Date(typeof job.dateLastModified === 'number' ? job.dateLastModified : now).toISOString(),
  };
}

function atsBContact(job: AtsBJobOrder): VacancyContactDto | undefined {
  const c = job.clientContact;
  if (!c) return undefined;
  const name = [c.firstName, c.lastName].filter((p): p is string => !!p?.trim()).join(' ');
  return {
    externalId: String(c.id),
    ...(name ? { name } : {}),
    ...(c.email ? { email: c.email } : {}),
    ...(c.phone ? { phone: c.phone } : {}),
  };
}

function atsBCompany(job: AtsBJobOrder): VacancyCompanyDto | undefined {
  const name = job.clientCorporation?.name?.trim();
  return name ? { name, links: {} } : undefined;
}
