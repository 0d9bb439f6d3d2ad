import { AtsError } from '@connector/ats-http';
import { AtsHttp, isRecord, isSuccess, type AtsHttpOptions, type AtsRequest } from '@connector/ats-http';
import { normalizeAtsABaseUrl } from './ats-a-base-url';
import { ATS_A_NAME, ATS_A_DEFAULT_RETRY_AFTER_MS } from './ats-a.protocol';

export interface AtsAToken {
  accessToken: string;
  /** Read it every time: 3599 on current ATS-A versions, 599 on old ones. */
  expiresInSeconds: number;
  scope?: string;
}

export interface AtsATokenOptions extends AtsHttpOptions {
  /** Comma list such as `vacancies.read,candidates.insert`; omitted = every scope of the API key. */
  scope?: string;
}

/** Client-credentials token (`POST {base}/api/token`, JSON body). ATS-A has no refresh token: ask again. */
export async function requestAtsAToken(
  baseUrl: string,
  clientId: string,
  clientSecret: string,
  options: AtsATokenOptions = {},
): Promise<AtsAToken> {
  const http = new AtsHttp(ATS_A_NAME, options, ATS_A_DEFAULT_RETRY_AFTER_MS);
  const request: AtsRequest = {
    endpoint: 'POST /api/token',
    method: 'POST',
    url: `${normalizeAtsABaseUrl(baseUrl)}/api/token`,
    json: {
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
      ...(options.scope ? { scope: options.scope } : {}),
    },
    // Asking for a token changes nothing a retry could duplicate.
    write: false,
    secrets: [clientSecret],
  };
  const response = await http.send(request);
  if (response.status === 400 || response.status === 401) {
    const error = http.failure(request, response);
    if (error.code === 'invalid_scope') {
      throw new AtsError(
        `ATS-A refused the requested scope "${options.scope ?? ''}": the API key is not allowed it ` +
          '(check the API key\u2019s permissions in ATS-A)',
        {
          kind: 'auth',
          endpoint: request.endpoint,
          status: response.status,
          atsMessage: error.atsMessage,
          code: 'invalid_scope',
        },
      );
    }
    // The vendor answers a bad id or secret with 400 or 401 (ats-a.md).
    throw new AtsError(
      'ATS-A refused the client ID or client secret: check both in the API key settings of ATS-A ' +
        `(${request.endpoint} answered ${response.status})`,
      {
        kind: 'auth',
        endpoint: request.endpoint,
        status: response.status,
        atsMessage: error.atsMessage,
        code: 'invalid_client',
      },
    );
  }
  if (!isSuccess(response)) throw http.failure(request, response);
  const body = response.body;
  if (!isRecord(body) || typeof body['access_token'] !== 'string' || body['access_token'] === '') {
    throw http.unexpected(request, response, 'an access_token');
  }
  const expiresIn = Number(body['expires_in']);
  if (!Number.isFinite(expiresIn) || expiresIn <= 0)
    throw http.unexpected(request, response, 'an expires_in');
  return {
    accessToken: body['access_token'],
    expiresInSeconds: expiresIn,
    ...(typeof body['scope'] === 'string' ? { scope: body['scope'] } : {}),
  };
}
