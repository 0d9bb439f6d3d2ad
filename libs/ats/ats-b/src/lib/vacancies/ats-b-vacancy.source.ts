import {
  type ClientOptions,
  pageLimitReached,
  type ListingOptions,
  type SourcePage,
  type SourceVacancy,
  type VacancyPartDeps,
  type VacancySource,
} from '@connector/ats-core';
import { readBoolean, readDate, readId, readInt, readObject, readText } from '@connector/ats-http';
import type { ConnectorSnapshot, VacancyCompanyDto, VacancyContactDto } from '@connector/contracts';
import type { AtsBClient } from '../client/ats-b.client';
import {
  ATS_B_JOB_ORDER_FIELDS,
  ATS_B_MAX_IDS_PER_GET,
  ATS_B_MAX_SEARCH_COUNT,
} from '../client/ats-b.protocol';
import type { AtsBJobOrder } from '../client/ats-b.types';

/** Every JobOrder field a mapping may read (libs/job-mapping source paths), plus what "live" needs. */
export const ATS_B_JOB_FIELDS = ATS_B_JOB_ORDER_FIELDS;

/**
 * ATS-B: job ids from `search/JobOrder` (keyset pages by id), then their details with
 * `entity/JobOrder/{ids}` in batches. A full listing asks for open, not deleted jobs; a changes-only one
 * asks for every job changed since the anchor whatever its state, and reports the ones that are no longer
 * live as `closed`, so a closed or deleted job leaves the platform in the next run, not the next full one.
 */
export class AtsBVacancySource implements VacancySource {
  readonly atsType = 'ats-b';

  constructor(private readonly deps: VacancyPartDeps<AtsBClient>) {}

  /** Each connector logs in to its own customer's data: the REST address comes with its session. */
  systemOf(connector: ConnectorSnapshot): string {
    return `ats-b:${connector.id}`;
  }

  async *listLive(
    connector: ConnectorSnapshot,
    options: ListingOptions,
    clientOptions: ClientOptions,
  ): AsyncGenerator<SourcePage, void, undefined> {
    const client = this.deps.client(connector, clientOptions);
    const changesOnly = options.since !== undefined;
    const pages = client.jobOrderIdPages({
      pageSize: options.pageSize ?? ATS_B_MAX_SEARCH_COUNT,
      afterId: options.after,
      ...(options.since ? { modifiedSince: options.since, state: 'any' as const } : {}),
    });
    let pagesRead = 0;
    for await (const ids of pages) {
      // Keyset pages have no number: counted from where this listing (or its resume) began.
      if (options.maxPages !== undefined && ++pagesRead > options.maxPages) {
        throw pageLimitReached(options.maxPages);
      }
      // The page's entity reads (ATS_B_MAX_IDS_PER_GET ids each) at once; the budget still meters each.
      const batches: number[][] = [];
      for (let i = 0; i < ids.length; i += ATS_B_MAX_IDS_PER_GET)
        batches.push(ids.slice(i, i + ATS_B_MAX_IDS_PER_GET));
      const jobs = (
        await Promise.all(batches.map((batch) => client.getJobOrders(batch, ATS_B_JOB_FIELDS)))
      ).flat();
      yield { after: Math.max(...ids), ...atsBPage(jobs, { listedOpen: !changesOnly, now: options.now }) };
    }
  }
}

export type AtsBJobState = 'live' | 'closed' | 'unknown';

/**
 * What a JobOrder's own fields say, read tolerantly (`isPublic` is an Integer at the vendor, 1 = published;
 * instances also send true/"1"). Closed: deleted, not open, or not published (an empty isPublic is not
 * published). `listedOpen`: the listing asked for `isOpen:1 AND isDeleted:0`, so an absent isOpen is open;
 * otherwise an unreadable isOpen is `unknown` (neither published nor closed on this evidence).
 */
export function atsBJobState(job: AtsBJobOrder, options: { listedOpen: boolean }): AtsBJobState {
  if (readBoolean(job.isDeleted) === true) return 'closed';
  const open = readBoolean(job.isOpen) ?? (options.listedOpen ? true : undefined);
  if (open === false) return 'closed';
  if (readBoolean(job.isPublic) !== true) return 'closed';
  return open === true ? 'live' : 'unknown';
}

/** A page of JobOrders read as a listing page: its live vacancies and the ids it says are not live. */
export function atsBPage(
  jobs: readonly AtsBJobOrder[],
  options: { listedOpen: boolean; now: Date },
): Omit<SourcePage, 'after'> {
  const vacancies: SourceVacancy[] = [];
  const closed: string[] = [];
  for (const job of jobs) {
    const externalId = readId(job.id);
    if (externalId === undefined) continue;
    const state = atsBJobState(job, options);
    if (state === 'live') vacancies.push(toAtsBSourceVacancy(job, options.now));
    else if (state === 'closed') closed.push(externalId);
  }
  return { read: jobs.length, vacancies, closed };
}

/**
 * A live JobOrder as the mapping sees it: the vendor's shapes with each value read tolerantly (ids and
 * integers as numbers, flags as booleans, isPublic 1/0, dates epoch ms, text trimmed, empty values and
 * unknown fields left out), so a change of representation is never a change of content.
 */
export function toAtsBSourceVacancy(job: AtsBJobOrder, now: Date): SourceVacancy {
  const contact = atsBContact(job);
  const company = atsBCompany(job);
  const updated = readDate(job.dateLastModified);
  return {
    externalId: readId(job.id) ?? String(job.id),
    record: atsBRecord(job),
    ...(contact ? { contact } : {}),
    ...(company ? { company } : {}),
    updatedAt: (updated ?? now).toISOString(),
  };
}

function atsBRecord(job: AtsBJobOrder): Record<string, unknown> {
  const address = readObject(job.address);
  const corporation = readObject(job.clientCorporation);
  const contact = readObject(job.clientContact);
  const isPublic = readBoolean(job.isPublic);
  const record = compact({
    id: readInt(job.id),
    title: text(job.title),
    address: address
      ? compact({
          address1: text(address['address1']),
          address2: text(address['address2']),
          city: text(address['city']),
          state: text(address['state']),
          zip: text(address['zip']),
          countryID: readInt(address['countryID']),
        })
      : undefined,
    publicDescription: text(job.publicDescription),
    description: text(job.description),
    skillList: text(job.skillList),
    employmentType: text(job.employmentType),
    status: text(job.status),
    isOpen: readBoolean(job.isOpen),
    isPublic: isPublic === undefined ? undefined : isPublic ? 1 : 0,
    dateAdded: readDate(job.dateAdded)?.getTime(),
    dateLastModified: readDate(job.dateLastModified)?.getTime(),
    clientCorporation: corporation
      ? compact({ id: readInt(corporation['id']), name: text(corporation['name']) })
      : undefined,
    clientContact: contact
      ? compact({
          id: readInt(contact['id']),
          firstName: text(contact['firstName']),
          lastName: text(contact['lastName']),
          email: text(contact['email']),
          phone: text(contact['phone']),
        })
      : undefined,
  });
  return record ?? {};
}

function atsBContact(job: AtsBJobOrder): VacancyContactDto | undefined {
  const c = readObject(job.clientContact);
  const externalId = readId(c?.['id']);
  if (!c || externalId === undefined) return undefined;
  const name = [text(c['firstName']), text(c['lastName'])].filter(Boolean).join(' ');
  const email = text(c['email']);
  const phone = text(c['phone']);
  return { externalId, ...(name ? { name } : {}), ...(email ? { email } : {}), ...(phone ? { phone } : {}) };
}

function atsBCompany(job: AtsBJobOrder): VacancyCompanyDto | undefined {
  const name = text(readObject(job.clientCorporation)?.['name']);
  return name ? { name, links: {} } : undefined;
}

/** The vendor's `Strings` may come as a list: its texts joined. */
function text(value: unknown): string | undefined {
  if (!Array.isArray(value)) return readText(value);
  const joined = value
    .map((part) => readText(part))
    .filter(Boolean)
    .join(', ');
  return joined === '' ? undefined : joined;
}

function compact(value: Record<string, unknown>): Record<string, unknown> | undefined {
  const out = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
  return Object.keys(out).length > 0 ? out : undefined;
}
