import {
  AtsHttp,
  type AtsHttpOptions,
  type AtsRequest,
  type AtsResponse,
  isRecord,
  isSuccess,
} from '@connector/ats-http';

/** The Keys vendor's name in errors and metrics. */
export const TW_KEYS_NAME = 'Keys vendor';
/** The most jobs a page may ask for (the vendor refuses more). */
export const TW_KEYS_MAX_PAGE = 100;
const RETRY_AFTER_MS = 60_000;

export interface TwKeysToken {
  accessToken: string;
  expiresInSeconds: number;
}

/** A job as the vendor sends it: read tolerantly by the vacancy source. */
export type TwKeysJob = Record<string, unknown>;

/** A person as the vendor takes it: every field always sent (null or [] when empty), so a removal is a change. */
export interface TwKeysPersonInput {
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  mobile: string | null;
  jobs: Array<{ employer: string; title: string; from: string; to: string | null }>;
  schools: Array<{ name: string; degree: string | null; subject: string | null }>;
}

/** The vendor's address without a trailing slash; anything but an http(s) URL is refused. */
export function normalizeTwKeysBaseUrl(baseUrl: string): string {
  const url = new URL(baseUrl.trim());
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('the address must be http(s)');
  return url.toString().replace(/\/+$/, '');
}

/** `POST {base}/oauth/token` with client credentials (RFC 6749 4.4), form-encoded. */
export async function requestTwKeysToken(
  baseUrl: string,
  clientId: string,
  clientSecret: string,
  options: AtsHttpOptions,
): Promise<TwKeysToken> {
  const http = new AtsHttp(TW_KEYS_NAME, options, RETRY_AFTER_MS);
  const request: AtsRequest = {
    endpoint: 'POST /oauth/token',
    method: 'POST',
    url: `${normalizeTwKeysBaseUrl(baseUrl)}/oauth/token`,
    form: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
    write: false,
    secrets: [clientSecret],
  };
  const response = await http.send(request);
  if (!isSuccess(response)) throw http.failure(request, response);
  const body = response.body;
  if (!isRecord(body) || typeof body['access_token'] !== 'string' || body['access_token'] === '')
    throw http.unexpected(request, response, 'an access_token');
  const expiresIn = Number(body['expires_in']);
  return { accessToken: body['access_token'], expiresInSeconds: expiresIn > 0 ? expiresIn : 300 };
}

export interface TwKeysClientConfig extends AtsHttpOptions {
  /** The connector's access: its address and token (`rejected`: the one the vendor just refused). */
  access(rejected?: string): Promise<{ baseUrl: string; accessToken: string }>;
}

/** The Keys vendor's API: jobs by keyset pages, people by email, a person created. */
export class TwKeysClient {
  private readonly http: AtsHttp;

  constructor(private readonly config: TwKeysClientConfig) {
    this.http = new AtsHttp(TW_KEYS_NAME, config, RETRY_AFTER_MS);
  }

  get unsureWriteSettleMs(): number {
    return this.http.unsureWriteSettleMs;
  }

  /** One page of jobs with an id above `after`, in id order. */
  async jobs(after: number, limit: number): Promise<{ jobs: TwKeysJob[]; hasMore: boolean }> {
    const { response, request } = await this.call(
      'GET /v1/jobs',
      'GET',
      `/v1/jobs?after=${after}&limit=${limit}`,
    );
    const body = response.body;
    if (!isRecord(body) || !Array.isArray(body['jobs']))
      throw this.http.unexpected(request, response, 'jobs');
    if (body['jobs'].length > limit)
      throw this.http.tooManyRecords(request, response, body['jobs'].length, limit);
    return { jobs: body['jobs'].filter(isRecord), hasMore: body['has_more'] === true };
  }

  async peopleByEmail(email: string): Promise<Array<{ id: number }>> {
    const path = `/v1/people?email=${encodeURIComponent(email)}`;
    const { response, request } = await this.call('GET /v1/people', 'GET', path);
    const body = response.body;
    if (!isRecord(body) || !Array.isArray(body['people']))
      throw this.http.unexpected(request, response, 'people');
    return body['people']
      .filter(isRecord)
      .flatMap((p) => (typeof p['id'] === 'number' ? [{ id: p['id'] }] : []));
  }

  async createPerson(person: TwKeysPersonInput, signal?: AbortSignal): Promise<number> {
    const { response, request } = await this.call('POST /v1/people', 'POST', '/v1/people', person, signal);
    const id = isRecord(response.body) ? response.body['id'] : undefined;
    if (typeof id !== 'number') throw this.http.unexpected(request, response, 'the id of the person');
    return id;
  }

  /** Changes the fields given (lists replaced whole). */
  async patchPerson(id: string, fields: Partial<TwKeysPersonInput>, signal?: AbortSignal): Promise<void> {
    await this.call('PATCH /v1/people/{id}', 'PATCH', `/v1/people/${encodeURIComponent(id)}`, fields, signal);
  }

  /** One call with the connector's token; a 401 asks for a new token once. */
  private async call(
    endpoint: string,
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    json?: object,
    signal?: AbortSignal,
  ): Promise<{ response: AtsResponse; request: AtsRequest }> {
    let rejected: string | undefined;
    for (let attempt = 0; ; attempt++) {
      const { baseUrl, accessToken } = await this.config.access(rejected);
      const request: AtsRequest = {
        endpoint,
        method,
        url: `${baseUrl}${path}`,
        headers: { Authorization: `Bearer ${accessToken}` },
        ...(json ? { json } : {}),
        write: method !== 'GET',
        secrets: [accessToken],
        ...(signal ? { signal } : {}),
      };
      const response = await this.http.send(request);
      if (isSuccess(response)) return { response, request };
      const failure = this.http.failure(request, response);
      if (failure.kind !== 'auth' || attempt > 0) throw failure;
      rejected = accessToken;
    }
  }
}
