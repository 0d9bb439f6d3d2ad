import { AtsError } from '@connector/ats-http';
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
import type { MultipartPart } from '@connector/ats-http';
import { normalizeAtsABaseUrl } from './ats-a-base-url';
import {
  ATS_A_DEFAULT_RETRY_AFTER_MS,
  ATS_A_INDEX_LAG_MS,
  ATS_A_MAX_PAGE_SIZE,
  ATS_A_NAME,
  ATS_A_VACANCY_STATUS_DROPDOWN,
} from './ats-a.protocol';
import type {
  AtsAApplicationInput,
  AtsAApplicationPatch,
  AtsACandidateInput,
  AtsACandidatePatch,
  AtsAFilter,
  AtsAPickList,
  AtsASearchBody,
  AtsASearchPage,
  AtsASearchResource,
  AtsAUploadFile,
  AtsAUploadKind,
} from './ats-a.types';

/** A token, or a token with the address it is for (then that address is called, not `baseUrl`). */
export type AtsAAccessToken = string | { accessToken: string; baseUrl: string };

export interface AtsAClientConfig extends AtsHttpOptions {
  /**
   * The customer's address, with or without a trailing `/` or `/api`. Optional when `token` answers with
   * the address: one source for both, so they cannot disagree.
   */
  baseUrl?: string;
  /**
   * The caller owns tokens (cache, share between workers). `rejected` is the token ATS-A just refused with
   * 401: return a new one, not the same.
   */
  token: (options: { rejected?: string }) => Promise<AtsAAccessToken>;
}

export interface AtsASearchPagesOptions {
  filters?: AtsAFilter[];
  responseBlocks?: string[];
  /** 1..500. */
  pageSize: number;
  /** Continue a paused listing from this page (default 1). */
  startPage?: number;
}

export interface AtsAPage<T> {
  page: number;
  totalPages: number;
  records: T[];
}

interface Call {
  endpoint: string;
  method: HttpMethod;
  path: string;
  json?: unknown;
  multipart?: MultipartPart[];
  write: boolean;
  signal?: AbortSignal;
}

/** ATS-A REST client: Bearer token, one new token and one retry on 401, errors as AtsError. */
export class AtsAClient {
  private readonly baseUrl: string | undefined;
  private readonly http: AtsHttp;

  constructor(private readonly config: AtsAClientConfig) {
    this.baseUrl = config.baseUrl === undefined ? undefined : normalizeAtsABaseUrl(config.baseUrl);
    this.http = new AtsHttp(ATS_A_NAME, config, ATS_A_DEFAULT_RETRY_AFTER_MS, ATS_A_INDEX_LAG_MS);
  }

  /** From a create's start until a look-up surely sees it if it landed: the call's timeout, then the index lag. */
  get unsureWriteSettleMs(): number {
    return this.http.unsureWriteSettleMs;
  }

  /** One page of `POST /api/{resource}/search`. */
  async search<T>(resource: AtsASearchResource, body: AtsASearchBody): Promise<AtsASearchPage<T>> {
    const endpoint = `POST /api/${resource}/search`;
    const { request, response } = await this.call({
      endpoint,
      method: 'POST',
      path: `/${resource}/search`,
      json: body,
      write: false, // a search is a POST but changes nothing
    });
    const page = response.body;
    if (
      !isRecord(page) ||
      !Array.isArray(page['Records']) ||
      typeof page['CurrentPage'] !== 'number' ||
      typeof page['TotalPages'] !== 'number'
    ) {
      throw this.http.unexpected(request, response, 'CurrentPage, TotalPages and Records');
    }
    if (page['Records'].length > 2 * body.Paging.RecordsPerPage) {
      throw this.http.tooManyRecords(request, response, page['Records'].length, body.Paging.RecordsPerPage);
    }
    return {
      CurrentPage: page['CurrentPage'],
      TotalPages: page['TotalPages'],
      Records: page['Records'] as T[],
    };
  }

  /**
   * Streams a search page by page: the next page is requested only when the consumer asks for it, so a
   * consumer can stop (or pause and later pass `startPage`) without spending calls.
   */
  async *searchPages<T>(
    resource: AtsASearchResource,
    options: AtsASearchPagesOptions,
  ): AsyncGenerator<AtsAPage<T>, void, undefined> {
    if (
      !Number.isInteger(options.pageSize) ||
      options.pageSize < 1 ||
      options.pageSize > ATS_A_MAX_PAGE_SIZE
    ) {
      throw new RangeError(`pageSize must be 1..${ATS_A_MAX_PAGE_SIZE}, got ${options.pageSize}`);
    }
    for (let page = options.startPage ?? 1; ; page++) {
      const result = await this.search<T>(resource, {
        Paging: { RecordsPerPage: options.pageSize, RequestedPage: page },
        ...(options.filters ? { Filters: options.filters } : {}),
        ...(options.responseBlocks ? { ResponseBlocks: options.responseBlocks } : {}),
      });
      // Empty result: TotalPages 0; a startPage past the end: no records. Neither is a page to hand out.
      if (result.TotalPages === 0 || (page > result.TotalPages && result.Records.length === 0)) return;
      yield { page, totalPages: result.TotalPages, records: result.Records };
      if (Math.max(result.CurrentPage, page) >= result.TotalPages) return;
    }
  }

  /** `GET /api/options/dropdown/50`: the vacancy statuses; also the connection test's cheap read. */
  async getVacancyStatuses(): Promise<AtsAPickList[]> {
    const { request, response } = await this.call({
      endpoint: `GET /api/options/dropdown/${ATS_A_VACANCY_STATUS_DROPDOWN}`,
      method: 'GET',
      path: `/options/dropdown/${ATS_A_VACANCY_STATUS_DROPDOWN}`,
      write: false,
    });
    if (!Array.isArray(response.body)) throw this.http.unexpected(request, response, 'a list');
    return response.body as AtsAPickList[];
  }

  async createCandidate(
    body: AtsACandidateInput,
    { signal }: AtsWriteOptions = {},
  ): Promise<{ CandidateId: number }> {
    const { request, response } = await this.call({
      endpoint: 'POST /api/candidates',
      method: 'POST',
      path: '/candidates',
      json: body,
      write: true,
      signal,
    });
    return { CandidateId: this.idFrom(request, response, 'CandidateId') };
  }

  /** Only the changed fields. */
  async patchCandidate(
    id: number,
    body: AtsACandidatePatch,
    { signal }: AtsWriteOptions = {},
  ): Promise<void> {
    await this.call({
      endpoint: 'PATCH /api/candidates/{id}',
      method: 'PATCH',
      path: `/candidates/${encodeId(id)}`,
      json: body,
      write: true,
      signal,
    });
  }

  async createApplication(
    body: AtsAApplicationInput,
    { signal }: AtsWriteOptions = {},
  ): Promise<{ ApplicationId: number }> {
    const { request, response } = await this.call({
      endpoint: 'POST /api/applications',
      method: 'POST',
      path: '/applications',
      json: body,
      write: true,
      signal,
    });
    return { ApplicationId: this.idFrom(request, response, 'ApplicationId') };
  }

  async patchApplication(
    id: number,
    body: AtsAApplicationPatch,
    { signal }: AtsWriteOptions = {},
  ): Promise<void> {
    await this.call({
      endpoint: 'PATCH /api/applications/{id}',
      method: 'PATCH',
      path: `/applications/${encodeId(id)}`,
      json: body,
      write: true,
      signal,
    });
  }

  /** Multipart upload, part `file`; `fileTypeId` from pick list 193 (2 = CV, 3 = General). */
  async uploadCandidateFile(
    candidateId: number,
    kind: AtsAUploadKind,
    file: AtsAUploadFile,
    fileTypeId?: number,
    { signal }: AtsWriteOptions = {},
  ): Promise<{ FileId: number }> {
    const multipart: MultipartPart[] = [
      { name: 'file', filename: file.name, contentType: file.contentType, content: file.content },
    ];
    if (fileTypeId !== undefined) multipart.push({ name: 'FileTypeId', value: String(fileTypeId) });
    const { request, response } = await this.call({
      endpoint: `POST /api/candidates/{id}/upload/${kind}`,
      method: 'POST',
      path: `/candidates/${encodeId(candidateId)}/upload/${kind}`,
      multipart,
      write: true,
      signal,
    });
    return { FileId: this.idFrom(request, response, 'FileId') };
  }

  /** One call with the current token; on 401 one new token and one retry (ats-a.md). */
  private async call(call: Call): Promise<{ request: AtsRequest; response: AtsResponse }> {
    let access = this.accessOf(await this.config.token({}));
    let request = this.request(call, access);
    let response = await this.http.send(request);
    if (response.status === 401) {
      access = this.accessOf(await this.config.token({ rejected: access.token }));
      request = this.request(call, access);
      response = await this.http.send(request);
    }
    if (!isSuccess(response)) throw this.http.failure(request, response);
    return { request, response };
  }

  private accessOf(answer: AtsAAccessToken): { token: string; baseUrl: string } {
    if (typeof answer !== 'string') {
      return { token: answer.accessToken, baseUrl: normalizeAtsABaseUrl(answer.baseUrl) };
    }
    if (this.baseUrl === undefined)
      throw new Error('AtsAClient: the token came without an address and no baseUrl is set');
    return { token: answer, baseUrl: this.baseUrl };
  }

  private request(call: Call, { token, baseUrl }: { token: string; baseUrl: string }): AtsRequest {
    return {
      endpoint: call.endpoint,
      method: call.method,
      url: `${baseUrl}/api${call.path}`,
      headers: { Authorization: `Bearer ${token}` },
      json: call.json,
      multipart: call.multipart,
      write: call.write,
      secrets: [token],
      signal: call.signal,
    };
  }

  private idFrom(request: AtsRequest, response: AtsResponse, field: string): number {
    const body = response.body;
    const id = isRecord(body) ? body[field] : undefined;
    if (typeof id !== 'number') throw this.http.unexpected(request, response, field);
    return id;
  }
}

function encodeId(id: number): string {
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw new AtsError(`${ATS_A_NAME}: ${id} is not a record id`, { kind: 'permanent', endpoint: 'client' });
  }
  return String(id);
}
