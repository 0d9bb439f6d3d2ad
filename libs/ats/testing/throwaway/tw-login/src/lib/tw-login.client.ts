import {
  AtsHttp,
  type AtsHttpOptions,
  type AtsRequest,
  type AtsResponse,
  isRecord,
  isSuccess,
} from '@connector/ats-http';
import type { LoginTokens } from '@connector/ats-core';

/** The Login vendor's name in errors and metrics. */
export const TW_LOGIN_NAME = 'Login vendor';
/** The most openings a page may ask for (the vendor refuses more). */
export const TW_LOGIN_MAX_PER_PAGE = 25;
const RETRY_AFTER_MS = 60_000;

/** The platform's OAuth client at the vendor (auth-gateway's settings). */
export interface TwLoginOAuthClient {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/**
 * `POST {oauth}/token`, the client authenticated with HTTP Basic (RFC 6749 2.3.1): a code (with its PKCE
 * verifier) or a refresh token, which the vendor spends on the first try: never retried.
 */
export async function requestTwLoginTokens(
  client: TwLoginOAuthClient,
  grant: { code: string; verifier?: string } | { refreshToken: string },
  options: AtsHttpOptions,
): Promise<LoginTokens> {
  const http = new AtsHttp(TW_LOGIN_NAME, { ...options, quickRetry: false }, RETRY_AFTER_MS);
  const form: Record<string, string> =
    'code' in grant
      ? {
          grant_type: 'authorization_code',
          code: grant.code,
          redirect_uri: client.redirectUri,
          ...(grant.verifier ? { code_verifier: grant.verifier } : {}),
        }
      : { grant_type: 'refresh_token', refresh_token: grant.refreshToken };
  const basic = Buffer.from(
    `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`,
  ).toString('base64');
  const request: AtsRequest = {
    endpoint: 'POST /oauth/token',
    method: 'POST',
    url: client.tokenUrl,
    headers: { Authorization: `Basic ${basic}` },
    form,
    write: true,
    quickRetry: false,
    secrets: [client.clientSecret, basic, 'code' in grant ? grant.code : grant.refreshToken],
  };
  const response = await http.send(request);
  if (!isSuccess(response)) throw http.failure(request, response);
  const body = response.body;
  if (
    !isRecord(body) ||
    typeof body['access_token'] !== 'string' ||
    typeof body['refresh_token'] !== 'string'
  )
    throw http.unexpected(request, response, 'an access_token and a refresh_token');
  const expiresIn = Number(body['expires_in']);
  return {
    accessToken: body['access_token'],
    refreshToken: body['refresh_token'],
    expiresInSeconds: expiresIn > 0 ? expiresIn : 300,
  };
}

export interface TwLoginClientConfig extends AtsHttpOptions {
  /** The connector's access: the API's address and token (`rejected`: the one the vendor just refused). */
  access(rejected?: string): Promise<{ apiUrl: string; accessToken: string }>;
}

/** The Login vendor's API: openings by page number, applicants by email, an applicant created. */
export class TwLoginClient {
  private readonly http: AtsHttp;

  constructor(private readonly config: TwLoginClientConfig) {
    this.http = new AtsHttp(TW_LOGIN_NAME, config, RETRY_AFTER_MS);
  }

  get unsureWriteSettleMs(): number {
    return this.http.unsureWriteSettleMs;
  }

  async openings(
    page: number,
    perPage: number,
  ): Promise<{ items: Record<string, unknown>[]; totalPages: number }> {
    const path = `/openings?page=${page}&per_page=${perPage}`;
    const { response, request } = await this.call('GET /api/openings', 'GET', path);
    const body = response.body;
    if (!isRecord(body) || !Array.isArray(body['items']))
      throw this.http.unexpected(request, response, 'items');
    if (body['items'].length > perPage)
      throw this.http.tooManyRecords(request, response, body['items'].length, perPage);
    const totalPages = Number(body['total_pages']);
    return {
      items: body['items'].filter(isRecord),
      totalPages: Number.isInteger(totalPages) ? totalPages : page,
    };
  }

  async applicantsByEmail(email: string): Promise<string[]> {
    const path = `/applicants?email=${encodeURIComponent(email)}`;
    const { response, request } = await this.call('GET /api/applicants', 'GET', path);
    const body = response.body;
    if (!isRecord(body) || !Array.isArray(body['items']))
      throw this.http.unexpected(request, response, 'items');
    return body['items'].filter(isRecord).flatMap((a) => (typeof a['key'] === 'string' ? [a['key']] : []));
  }

  async createApplicant(applicant: object, signal?: AbortSignal): Promise<string> {
    const { response, request } = await this.call(
      'POST /api/applicants',
      'POST',
      '/applicants',
      applicant,
      signal,
    );
    const key = isRecord(response.body) ? response.body['key'] : undefined;
    if (typeof key !== 'string') throw this.http.unexpected(request, response, 'the key of the applicant');
    return key;
  }

  /** Replaces the applicant whole (the vendor has no partial update). */
  async replaceApplicant(key: string, applicant: object, signal?: AbortSignal): Promise<void> {
    await this.call(
      'PUT /api/applicants/{key}',
      'PUT',
      `/applicants/${encodeURIComponent(key)}`,
      applicant,
      signal,
    );
  }

  /** One call with the connector's token; a 401 asks for a new token once. */
  private async call(
    endpoint: string,
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    json?: object,
    signal?: AbortSignal,
  ): Promise<{ response: AtsResponse; request: AtsRequest }> {
    let rejected: string | undefined;
    for (let attempt = 0; ; attempt++) {
      const { apiUrl, accessToken } = await this.config.access(rejected);
      const request: AtsRequest = {
        endpoint,
        method,
        url: `${apiUrl}${path}`,
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
