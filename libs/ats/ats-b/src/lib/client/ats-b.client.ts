import { AtsError, parseAtsErrorBody } from '@connector/ats-http';
import {
  AtsHttp,
  isRecord,
  isSuccess,
  type AtsHttpOptions,
  type AtsRequest,
  type AtsResponse,
  type AtsWriteOptions,
  type HttpMethod,
} from '@connector/ats-http';
import { readId, readInt, readObject, readText } from '@connector/ats-http';
import {
  ATS_B_MAX_EVENTS_PER_READ,
  ATS_B_SUBSCRIPTION_ID,
  type AtsBEventBatch,
  AtsBSubscriptionGoneError,
  readEventBatch,
} from './ats-b-events';
import {
  ATS_B_ASSOCIATION_COUNT,
  ATS_B_DEFAULT_RETRY_AFTER_MS,
  ATS_B_INDEX_LAG_MS,
  ATS_B_EDUCATION_FIELDS,
  ATS_B_FILE_FIELDS,
  ATS_B_INVALID_REST_TOKEN,
  ATS_B_MAX_IDS_PER_GET,
  ATS_B_MAX_SEARCH_COUNT,
  ATS_B_NAME,
  ATS_B_OPEN_JOBS_QUERY,
  ATS_B_WORK_HISTORY_FIELDS,
} from './ats-b.protocol';
import type {
  AtsBCandidate,
  AtsBCandidateFile,
  AtsBCandidateInput,
  AtsBCandidatePatch,
  AtsBChangeResult,
  AtsBEducation,
  AtsBEducationInput,
  AtsBJobOrder,
  AtsBSearchJobOrdersParams,
  AtsBSearchResult,
  AtsBSession,
  AtsBUploadFile,
  AtsBWorkHistory,
  AtsBWorkHistoryInput,
} from './ats-b.types';

export interface AtsBClientConfig extends AtsHttpOptions {
  /**
   * The caller owns sessions (refresh + login under one lock per connector). `rejected` is the BhRestToken
   * ATS-B just refused as timed out: return a new session, not the same.
   */
  session: (options: { rejected?: string }) => Promise<AtsBSession>;
}

export interface AtsBJobOrderIdPagesOptions {
  /** Only jobs modified at or after this instant. */
  modifiedSince?: Date;
  /**
   * `open` (default): open, not deleted jobs only. `any`: whatever their state, so a changes-only listing
   * also sees the jobs that were closed or deleted (the caller decides from their fields).
   */
  state?: 'open' | 'any';
  /** 1..500, default 500. */
  pageSize?: number;
  /** Continue a paused listing after this id (the last id of the last page handled). */
  afterId?: number;
}

interface Call {
  endpoint: string;
  method: HttpMethod;
  /** Relative to restUrl, query string included. */
  path: string;
  json?: unknown;
  write: boolean;
  signal?: AbortSignal;
}

/** ATS-B REST client: `BhRestToken` header, one new session and one retry when the session timed out. */
export class AtsBClient {
  private readonly http: AtsHttp;

  constructor(private readonly config: AtsBClientConfig) {
    this.http = new AtsHttp(ATS_B_NAME, config, ATS_B_DEFAULT_RETRY_AFTER_MS, ATS_B_INDEX_LAG_MS);
  }

  /** From a create's start until a look-up surely sees it if it landed: the call's timeout, then the index lag. */
  get unsureWriteSettleMs(): number {
    return this.http.unsureWriteSettleMs;
  }

  /** `GET ping`: the session's expiry (epoch ms); a cheap check that the session works. */
  async ping(): Promise<{ sessionExpires: number }> {
    const { request, response } = await this.call({
      endpoint: 'GET ping',
      method: 'GET',
      path: 'ping',
      write: false,
    });
    const sessionExpires = isRecord(response.body) ? readInt(response.body['sessionExpires']) : undefined;
    if (sessionExpires === undefined) throw this.http.unexpected(request, response, 'sessionExpires');
    return { sessionExpires };
  }

  /** One page of `GET search/JobOrder` with `fields=id`. */
  async searchJobOrderIds(params: AtsBSearchJobOrdersParams): Promise<AtsBSearchResult<{ id: number }>> {
    const query = new URLSearchParams({
      query: params.query,
      fields: 'id',
      start: String(params.start),
      count: String(params.count),
      sort: params.sort ?? 'id',
    });
    const { request, response } = await this.call({
      endpoint: 'GET search/JobOrder',
      method: 'GET',
      path: `search/JobOrder?${query.toString()}`,
      write: false,
    });
    const rows = idRows(this.http, request, response);
    if (rows.data.length > 2 * params.count) {
      throw this.http.tooManyRecords(request, response, rows.data.length, params.count);
    }
    return rows;
  }

  /**
   * Every open job id (with `state: 'any'`, every job id), page by page (a page is fetched when the
   * consumer asks). Pages by id range (`id:[last+1 TO *]`, sorted by id) rather than by offset, so a job
   * closing mid-listing cannot shift a later one out of the window and hide it.
   */
  async *jobOrderIdPages(
    options: AtsBJobOrderIdPagesOptions = {},
  ): AsyncGenerator<number[], void, undefined> {
    const pageSize = options.pageSize ?? ATS_B_MAX_SEARCH_COUNT;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > ATS_B_MAX_SEARCH_COUNT) {
      throw new RangeError(`pageSize must be 1..${ATS_B_MAX_SEARCH_COUNT}, got ${pageSize}`);
    }
    const base = jobOrderListingTerms(options);
    let afterId = options.afterId ?? 0;
    for (;;) {
      const terms = afterId > 0 ? [...base, `id:[${afterId + 1} TO *]`] : base;
      // Lucene needs at least one term: "every job" is the open id range.
      const query = terms.length > 0 ? terms.join(' AND ') : 'id:[1 TO *]';
      const page = await this.searchJobOrderIds({ query, start: 0, count: pageSize, sort: 'id' });
      const ids = page.data.map((row) => row.id);
      if (ids.length === 0) return;
      yield ids;
      // `total` counts what this query still matches: when this page held all of it, we are done.
      if (ids.length >= page.total) return;
      afterId = Math.max(...ids);
    }
  }

  /** `GET entity/JobOrder/{ids}?fields=…`, batched; unknown ids are left out. */
  async getJobOrders(ids: readonly number[], fields: readonly string[]): Promise<AtsBJobOrder[]> {
    if (fields.length === 0) throw new RangeError('fields is required by ATS-B (e.g. ["id","title"])');
    const out: AtsBJobOrder[] = [];
    for (let i = 0; i < ids.length; i += ATS_B_MAX_IDS_PER_GET) {
      out.push(
        ...(await this.getEntities<AtsBJobOrder>(
          'JobOrder',
          ids.slice(i, i + ATS_B_MAX_IDS_PER_GET),
          fields,
        )),
      );
    }
    return out;
  }

  /**
   * `PUT event/subscription/{id}?type=entity&names=JobOrder&eventTypes=INSERTED,UPDATED,DELETED`: creates the
   * subscription, or re-creates it under the same id (the vendor keeps what it queued).
   */
  async subscribeJobOrderEvents(subscriptionId: string): Promise<void> {
    const query = new URLSearchParams({
      type: 'entity',
      names: 'JobOrder',
      eventTypes: 'INSERTED,UPDATED,DELETED',
    });
    await this.call({
      endpoint: 'PUT event/subscription',
      method: 'PUT',
      path: `event/subscription/${subscriptionPath(subscriptionId)}?${query.toString()}`,
      write: false,
    });
  }

  /**
   * `GET event/subscription/{id}?maxEvents=N` (reading removes the events), or with `requestId` the last batch
   * again. An unknown subscription is `AtsBSubscriptionGoneError`.
   */
  async readEvents(
    subscriptionId: string,
    read: { maxEvents?: number; requestId?: number } = {},
  ): Promise<AtsBEventBatch> {
    const query =
      read.requestId !== undefined
        ? new URLSearchParams({ requestId: String(read.requestId) })
        : new URLSearchParams({
            maxEvents: String(
              Math.min(read.maxEvents ?? ATS_B_MAX_EVENTS_PER_READ, ATS_B_MAX_EVENTS_PER_READ),
            ),
          });
    try {
      const { response } = await this.call({
        endpoint: 'GET event/subscription',
        method: 'GET',
        path: `event/subscription/${subscriptionPath(subscriptionId)}?${query.toString()}`,
        write: false,
      });
      return readEventBatch(response.body);
    } catch (error) {
      if (error instanceof AtsError && error.kind === 'not_found')
        throw new AtsBSubscriptionGoneError(subscriptionId);
      throw error;
    }
  }

  /** `DELETE event/subscription/{id}`: false when the ATS did not know it. */
  async unsubscribeEvents(subscriptionId: string): Promise<boolean> {
    const { response } = await this.call({
      endpoint: 'DELETE event/subscription',
      method: 'DELETE',
      path: `event/subscription/${subscriptionPath(subscriptionId)}`,
      write: false,
    });
    return !(isRecord(response.body) && response.body['result'] === false);
  }

  /** `PUT entity/Candidate`. */
  async createCandidate(body: AtsBCandidateInput, options: AtsWriteOptions = {}): Promise<AtsBChangeResult> {
    return this.change('PUT entity/Candidate', 'PUT', 'entity/Candidate', body, options);
  }

  /** `POST entity/Candidate/{id}` with the changed fields. */
  async updateCandidate(
    id: number,
    body: AtsBCandidatePatch,
    options: AtsWriteOptions = {},
  ): Promise<AtsBChangeResult> {
    const path = `entity/Candidate/${encodeId(id)}`;
    return this.change('POST entity/Candidate/{id}', 'POST', path, body, options);
  }

  /** `GET entity/Candidate/{id}?fields=…`; undefined when ATS-B does not know the id. */
  async getCandidate(id: number, fields: readonly string[]): Promise<AtsBCandidate | undefined> {
    const [candidate] = await this.getEntities<AtsBCandidate>('Candidate', [id], fields);
    return candidate;
  }

  /** Ids of candidates with this email (`search/Candidate?query=email:"…"`): reconciliation after an ambiguous create. */
  async findCandidateIdsByEmail(email: string): Promise<number[]> {
    const endpoint = 'GET search/Candidate';
    const value = email.trim();
    if (value === '' || /["\s\\]/.test(value)) {
      throw new AtsError(
        `${ATS_B_NAME}: cannot search candidates by the email given (empty or with quotes/spaces)`,
        {
          kind: 'permanent',
          endpoint,
          code: 'invalid_search_value',
        },
      );
    }
    const query = new URLSearchParams({ query: `email:"${value}"`, fields: 'id', start: '0', count: '500' });
    const { request, response } = await this.call({
      endpoint,
      method: 'GET',
      path: `search/Candidate?${query.toString()}`,
      write: false,
    });
    return idRows(this.http, request, response).data.map((row) => row.id);
  }

  /** `PUT entity/CandidateWorkHistory`, after the candidate exists. */
  async createWorkHistory(
    body: AtsBWorkHistoryInput,
    options: AtsWriteOptions = {},
  ): Promise<AtsBChangeResult> {
    return this.change(
      'PUT entity/CandidateWorkHistory',
      'PUT',
      'entity/CandidateWorkHistory',
      body,
      options,
    );
  }

  /** `PUT entity/CandidateEducation`, after the candidate exists. */
  async createEducation(body: AtsBEducationInput, options: AtsWriteOptions = {}): Promise<AtsBChangeResult> {
    return this.change('PUT entity/CandidateEducation', 'PUT', 'entity/CandidateEducation', body, options);
  }

  /** `PUT file/Candidate/{id}`, base64 JSON with `fileType: 'SAMPLE'`. */
  async uploadCandidateFile(
    candidateId: number,
    file: AtsBUploadFile,
    { signal }: AtsWriteOptions = {},
  ): Promise<{ fileId: number }> {
    const { request, response } = await this.call({
      endpoint: 'PUT file/Candidate/{id}',
      method: 'PUT',
      path: `file/Candidate/${encodeId(candidateId)}`,
      json: {
        externalID: file.externalID,
        fileContent: file.content.toString('base64'),
        fileType: 'SAMPLE',
        name: file.name,
        contentType: file.contentType,
        type: file.type,
        ...(file.description !== undefined ? { description: file.description } : {}),
      },
      write: true,
      signal,
    });
    const fileId = isRecord(response.body) ? readInt(response.body['fileId']) : undefined;
    if (fileId === undefined) throw this.http.unexpected(request, response, 'fileId');
    return { fileId };
  }

  /** `GET entity/Candidate/{id}/fileAttachments`: to see whether an upload (by externalID) already landed. */
  async listCandidateFiles(candidateId: number): Promise<AtsBCandidateFile[]> {
    const { request, response } = await this.call({
      endpoint: 'GET entity/Candidate/{id}/fileAttachments',
      method: 'GET',
      path: `entity/Candidate/${encodeId(candidateId)}/fileAttachments?fields=${ATS_B_FILE_FIELDS}`,
      write: false,
    });
    const body = response.body;
    if (!isRecord(body) || !Array.isArray(body['data']))
      throw this.http.unexpected(request, response, 'data');
    const files: AtsBCandidateFile[] = [];
    for (const row of body['data']) {
      const file = readObject(row);
      const id = readInt(file?.['id']);
      if (!file || id === undefined) continue;
      files.push({
        id,
        name: readText(file['name']) ?? '',
        type: readText(file['type']) ?? null,
        externalID: readId(file['externalID']) ?? null,
      });
    }
    return files;
  }

  /**
   * `GET entity/Candidate/{id}/workHistories`: the candidate's work-history records (up to
   * ATS_B_ASSOCIATION_COUNT), to see whether a create whose answer was lost landed.
   */
  async listCandidateWorkHistories(candidateId: number): Promise<AtsBWorkHistory[]> {
    const rows = await this.toMany(candidateId, 'workHistories', ATS_B_WORK_HISTORY_FIELDS);
    return rows.map(({ id, row }) => ({
      id,
      companyName: readText(row['companyName']) ?? null,
      title: readText(row['title']) ?? null,
      startDate: readInt(row['startDate']) ?? null,
      endDate: readInt(row['endDate']) ?? null,
      comments: readText(row['comments']) ?? null,
    }));
  }

  /** `GET entity/Candidate/{id}/educations`: the candidate's education records (as listCandidateWorkHistories). */
  async listCandidateEducations(candidateId: number): Promise<AtsBEducation[]> {
    const rows = await this.toMany(candidateId, 'educations', ATS_B_EDUCATION_FIELDS);
    return rows.map(({ id, row }) => ({
      id,
      school: readText(row['school']) ?? null,
      degree: readText(row['degree']) ?? null,
      major: readText(row['major']) ?? null,
      startDate: readInt(row['startDate']) ?? null,
      endDate: readInt(row['endDate']) ?? null,
    }));
  }

  /**
   * `GET entity/Candidate/{id}/{association}?fields=…&start=0&count=…` → `{data:[…]}`; ids read as numbers
   * or numeric strings, rows without one left out. Text is read trimmed, empty as absent (readText).
   */
  private async toMany(
    candidateId: number,
    association: 'workHistories' | 'educations',
    fields: readonly string[],
  ): Promise<{ id: number; row: Record<string, unknown> }[]> {
    const query = new URLSearchParams({
      fields: fields.join(','),
      start: '0',
      count: String(ATS_B_ASSOCIATION_COUNT),
    });
    const { request, response } = await this.call({
      endpoint: `GET entity/Candidate/{id}/${association}`,
      method: 'GET',
      path: `entity/Candidate/${encodeId(candidateId)}/${association}?${query.toString()}`,
      write: false,
    });
    const body = response.body;
    if (!isRecord(body) || !Array.isArray(body['data']))
      throw this.http.unexpected(request, response, 'data');
    const rows: { id: number; row: Record<string, unknown> }[] = [];
    for (const item of body['data']) {
      const row = readObject(item);
      const id = readInt(row?.['id']);
      if (row && id !== undefined) rows.push({ id, row });
    }
    return rows;
  }

  /** `GET entity/{entity}/{ids}`: one id answers `{data:{…}}` (404 when unknown), several `{data:[…]}`. */
  private async getEntities<T>(
    entity: string,
    ids: readonly number[],
    fields: readonly string[],
  ): Promise<T[]> {
    if (ids.length === 0) return [];
    const endpoint = `GET entity/${entity}`;
    let result: { request: AtsRequest; response: AtsResponse };
    try {
      result = await this.call({
        endpoint,
        method: 'GET',
        path: `entity/${entity}/${ids.map(encodeId).join(',')}?${new URLSearchParams({ fields: fields.join(',') }).toString()}`,
        write: false,
      });
    } catch (error) {
      // A single unknown id is a 404 where several would just leave it out: make both read the same.
      if (ids.length === 1 && error instanceof AtsError && error.kind === 'not_found') return [];
      throw error;
    }
    const data = isRecord(result.response.body) ? result.response.body['data'] : undefined;
    if (Array.isArray(data)) return data as T[];
    if (isRecord(data)) return [data as T];
    throw this.http.unexpected(result.request, result.response, 'data');
  }

  private async change(
    endpoint: string,
    method: HttpMethod,
    path: string,
    json: unknown,
    { signal }: AtsWriteOptions,
  ): Promise<AtsBChangeResult> {
    const { request, response } = await this.call({ endpoint, method, path, json, write: true, signal });
    const body = response.body;
    const changedEntityId = isRecord(body) ? readInt(body['changedEntityId']) : undefined;
    if (!isRecord(body) || changedEntityId === undefined) {
      throw this.http.unexpected(request, response, 'changedEntityId');
    }
    return {
      changedEntityId,
      ...(typeof body['changedEntityType'] === 'string'
        ? { changedEntityType: body['changedEntityType'] }
        : {}),
      ...(typeof body['changeType'] === 'string'
        ? { changeType: body['changeType'] as AtsBChangeResult['changeType'] }
        : {}),
    };
  }

  /** One call in the current session; when ATS-B says the session timed out, one new session and one retry. */
  private async call(call: Call): Promise<{ request: AtsRequest; response: AtsResponse }> {
    let session = await this.config.session({});
    let request = this.request(call, session);
    let response = await this.http.send(request);
    if (response.status === 401 && parseAtsErrorBody(response.body).code === ATS_B_INVALID_REST_TOKEN) {
      session = await this.config.session({ rejected: session.bhRestToken });
      request = this.request(call, session);
      response = await this.http.send(request);
    }
    if (!isSuccess(response)) throw this.http.failure(request, response);
    return { request, response };
  }

  private request(call: Call, session: AtsBSession): AtsRequest {
    const restUrl = session.restUrl.endsWith('/') ? session.restUrl : `${session.restUrl}/`;
    return {
      endpoint: call.endpoint,
      method: call.method,
      url: `${restUrl}${call.path}`,
      headers: { BhRestToken: session.bhRestToken },
      json: call.json,
      write: call.write,
      secrets: [session.bhRestToken],
      signal: call.signal,
    };
  }
}

/** The search terms of a JobOrder id listing (ats-b.md; incremental: `dateLastModified:[<from> TO *]`, epoch ms). */
export function jobOrderListingTerms(
  options: Pick<AtsBJobOrderIdPagesOptions, 'modifiedSince' | 'state'>,
): string[] {
  const terms = (options.state ?? 'open') === 'open' ? [ATS_B_OPEN_JOBS_QUERY] : [];
  if (options.modifiedSince) terms.push(`dateLastModified:[${options.modifiedSince.getTime()} TO *]`);
  return terms;
}

/** A `search/…?fields=id` page; ids and counts read as numbers or numeric strings, rows without an id left out. */
function idRows(http: AtsHttp, request: AtsRequest, response: AtsResponse): AtsBSearchResult<{ id: number }> {
  const body = response.body;
  const total = isRecord(body) ? readInt(body['total']) : undefined;
  if (!isRecord(body) || !Array.isArray(body['data']) || total === undefined) {
    throw http.unexpected(request, response, 'total and data');
  }
  const data: { id: number }[] = [];
  for (const row of body['data']) {
    const id = readInt(readObject(row)?.['id']);
    if (id !== undefined) data.push({ id });
  }
  return {
    total,
    start: readInt(body['start']) ?? 0,
    count: readInt(body['count']) ?? data.length,
    data,
  };
}

function subscriptionPath(id: string): string {
  if (!ATS_B_SUBSCRIPTION_ID.test(id)) {
    throw new AtsError(`${ATS_B_NAME}: '${id}' is not a subscription name`, {
      kind: 'permanent',
      endpoint: 'client',
    });
  }
  return id;
}

function encodeId(id: number): string {
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw new AtsError(`${ATS_B_NAME}: ${id} is not a record id`, { kind: 'permanent', endpoint: 'client' });
  }
  return String(id);
}
