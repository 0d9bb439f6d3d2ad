import type {
  ConnectorSnapshot,
  RunWarningDto,
  VacancyCompanyDto,
  VacancyContactDto,
} from '@connector/contracts';
import type { ClientOptions } from './client-and-budget';
import type { AtsPart } from './ats-part';
import type { EnrichmentCache } from './enrichment-cache';

/**
 * vacancy-sync's parts of an ATS (its vacancy source, its event source): how the service reads an ATS's
 * vacancies. The parts live in the adapters' folders and are built with `VacancyPartDeps`.
 */

/** A live vacancy as a source hands it over, before the connector's job mapping. */
export interface SourceVacancy {
  externalId: string;
  /** What the job mapping reads (ATS-A: the vacancy with Company and Contact replaced by the enriched records). */
  record: Record<string, unknown>;
  contact?: VacancyContactDto;
  company?: VacancyCompanyDto;
  /** When the ATS last changed it (ISO 8601). */
  updatedAt: string;
  /**
   * The last UTC day (YYYY-MM-DD) the ATS advertises it, when it says: any later run closes it then, even one
   * that does not see it again (its record does not change when the day passes).
   */
  liveUntil?: string;
}

/**
 * What vacancy-sync builds an ATS's vacancy parts with (`AtsAdapter.vacancySource`, `vacancyEventSource`):
 * `C` the client its adapter makes (`makeClients`), here made by the service's `AtsClientFactory` with the
 * connector's access and budget.
 */
export interface VacancyPartDeps<C = unknown> {
  client(connector: ConnectorSnapshot, options: ClientOptions): C;
}

export interface ListingOptions {
  /** Only vacancies modified after this (incremental run); none: the complete listing. */
  since?: Date;
  /** Where a paused listing goes on: the `after` of the last page handled (0: from the start). */
  after: number;
  /** ATS-A: the status names that count as open (the source turns them into the ATS's ids). */
  openStatuses: readonly string[];
  now: Date;
  /** Records per listing page; sources use their protocol's maximum sensible page when not given. */
  pageSize?: number;
  /**
   * The most pages a run reads (what the ATS says of its page count is not trusted beyond it): a listing with
   * more fails with `pageLimitReached` instead of reading on. None: no bound (tests, previews).
   */
  maxPages?: number;
  /** Enrichment records the run fetched so far, kept across the pauses of one execution. */
  caches?: Map<string, EnrichmentCache<unknown>>;
}

/** One page of a listing: its live vacancies and where the listing goes on after it. */
export interface SourcePage {
  /** Opaque position: ATS-A the page number, ATS-B the last job id of the page. */
  after: number;
  /** Records the ATS returned in the page, live or not. */
  read: number;
  vacancies: SourceVacancy[];
  /**
   * External ids of records in this page that the ATS itself says are not live any more (closed, hidden,
   * expired, deleted): certain knowledge, so a published one is closed at once, in any kind of run.
   */
  closed: string[];
  /** Something about the listing the admin should know (unknown status names, an empty listing...). */
  warnings?: RunWarningDto[];
}

/**
 * The connector's configuration cannot work with this ATS (e.g. none of its open statuses exists there): the
 * run fails at once with this message, closing nothing.
 */
export class SourceRefusedError extends Error {
  constructor(
    message: string,
    /** A stable code for the run's warning (e.g. RUN_PAGE_LIMIT); none: the run's generic RUN_FAILED. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'SourceRefusedError';
  }
}

/** A listing that goes on past `maxPages` pages: the run stops there, keeping what it published. */
export function pageLimitReached(maxPages: number): SourceRefusedError {
  return new SourceRefusedError(
    `The ATS listed more than ${maxPages} pages of vacancies, the most a run reads. The run kept what it ` +
      `published and closed nothing by absence. A listing this long usually means the ATS answers wrongly ` +
      `(it repeats pages or reports too many); if it really has this many vacancies, ask us to raise the limit.`,
    'RUN_PAGE_LIMIT',
  );
}

/**
 * How vacancy-sync reads one ATS: its live vacancies, page by page, each page already enriched. A page is
 * fetched only when the consumer asks for the next one, so a run can stop (pause) between pages.
 */
export interface VacancySource extends AtsPart {
  /** The customer system the connector's calls go to: connectors on one system share its run cap. */
  systemOf(connector: ConnectorSnapshot): string;
  /**
   * The ATS's vacancy statuses that count as open when a connector's options name none (`openStatuses`), for a
   * source whose listing filters by status; none for one that does not.
   */
  readonly defaultOpenStatuses?: readonly string[];
  listLive(
    connector: ConnectorSnapshot,
    options: ListingOptions,
    client: ClientOptions,
  ): AsyncGenerator<SourcePage, void, undefined>;
  /**
   * Asks the ATS again, by id, about published vacancies a complete full listing did not see, before they are
   * closed by their absence: the live ones (to keep) and the others (`closed`: not live, or not found at all).
   * Only for a source whose listing can miss a record that stayed live (ATS-A pages by page number over a set
   * that changes during the run); a keyset listing (ATS-B) has none and closes by absence at once.
   */
  recheck?(
    connector: ConnectorSnapshot,
    externalIds: readonly string[],
    options: Pick<ListingOptions, 'openStatuses' | 'now' | 'caches'>,
    client: ClientOptions,
  ): Promise<Omit<SourcePage, 'after'>>;
}
