import { AtsError } from '@connector/ats-http';
import { AtsHttp, isRecord, isSuccess, type AtsHttpOptions, type AtsRequest } from '@connector/ats-http';
import { ATS_B_DEFAULT_RETRY_AFTER_MS, ATS_B_NAME } from './ats-b.protocol';
import type { AtsBLoginInfo, AtsBOAuthConfig, AtsBSession, AtsBTokenSet } from './ats-b.types';

/**
 * ATS-B's OAuth and REST login (ats-b.md "Flow"). Token parameters travel in the query string, as the vendor
 * documents; they are never put in endpoint labels or error messages.
 */
export class AtsBOAuthClient {
  private readonly http: AtsHttp;
  private readonly oauthUrl: string;
  private readonly restLoginUrl: string;

  constructor(
    private readonly config: AtsBOAuthConfig,
    options: AtsHttpOptions = {},
  ) {
    this.http = new AtsHttp(ATS_B_NAME, options, ATS_B_DEFAULT_RETRY_AFTER_MS);
    this.oauthUrl = config.oauthUrl.trim().replace(/\/+$/, '');
    this.restLoginUrl = config.restLoginUrl.trim().replace(/\/+$/, '');
  }

  /** Where the admin's browser goes to log in; `state` must be unguessable, single use and short-lived. */
  authorizeUrl(state: string): string {
    const query = new URLSearchParams({
      client_id: this.config.clientId,
      response_type: 'code',
      redirect_uri: this.config.redirectUri,
      state,
    });
    return `${this.oauthUrl}/authorize?${query.toString()}`;
  }

  /**
   * Code → tokens. A code is single use: a timeout after sending is ambiguous (the code may be spent).
   * `codeVerifier`: the PKCE verifier (RFC 7636) when the authorize URL carried its challenge.
   */
  async exchangeCode(code: string, codeVerifier?: string): Promise<AtsBTokenSet> {
    return this.token(
      'authorization_code',
      code,
      {
        grant_type: 'authorization_code',
        code,
        client_id: this.config.clientId,
        client_secret: this.config.clientSecret,
        redirect_uri: this.config.redirectUri,
        ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
      },
      codeVerifier ? [codeVerifier] : [],
    );
  }

  /**
   * Rotates both tokens; the old refresh token dies even if the answer is lost, so a timeout after sending
   * is `ambiguous` and the caller must not simply retry with the old one.
   */
  async refresh(refreshToken: string): Promise<AtsBTokenSet> {
    return this.token('refresh_token', refreshToken, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: this.config.clientId,
      client_secret: this.config.clientSecret,
    });
  }

  /** Access token → BhRestToken and the customer's restUrl. The vendor rate-limits logins: never loop. */
  async login(accessToken: string): Promise<AtsBSession> {
    const query = new URLSearchParams({ version: '*', access_token: accessToken });
    const request: AtsRequest = {
      endpoint: 'POST /rest-services/login',
      method: 'POST',
      url: `${this.restLoginUrl}/login?${query.toString()}`,
      // Another login only opens another session.
      write: false,
      // The vendor limits logins: a failed one waits for the caller's ladder, not a quick retry.
      quickRetry: false,
      secrets: [accessToken],
    };
    const response = await this.http.send(request);
    if (!isSuccess(response)) throw this.http.failure(request, response);
    const body = response.body;
    if (!isRecord(body) || typeof body['BhRestToken'] !== 'string' || typeof body['restUrl'] !== 'string') {
      throw this.http.unexpected(request, response, 'BhRestToken and restUrl');
    }
    const restUrl = body['restUrl'].endsWith('/') ? body['restUrl'] : `${body['restUrl']}/`;
    return { bhRestToken: body['BhRestToken'], restUrl };
  }

  /** Which data centre serves a user: `{oauthUrl, restUrl}` (restUrl without the corp token). */
  async loginInfo(username: string): Promise<AtsBLoginInfo> {
    const request: AtsRequest = {
      endpoint: 'GET /rest-services/loginInfo',
      method: 'GET',
      url: `${this.restLoginUrl}/loginInfo?${new URLSearchParams({ username }).toString()}`,
      write: false,
    };
    const response = await this.http.send(request);
    if (!isSuccess(response)) throw this.http.failure(request, response);
    const body = response.body;
    if (!isRecord(body) || typeof body['oauthUrl'] !== 'string' || typeof body['restUrl'] !== 'string') {
      throw this.http.unexpected(request, response, 'oauthUrl and restUrl');
    }
    return { oauthUrl: body['oauthUrl'], restUrl: body['restUrl'] };
  }

  private async token(
    grant: 'authorization_code' | 'refresh_token',
    grantValue: string,
    params: Record<string, string>,
    moreSecrets: string[] = [],
  ): Promise<AtsBTokenSet> {
    const request: AtsRequest = {
      endpoint: `POST /oauth/token (${grant})`,
      method: 'POST',
      url: `${this.oauthUrl}/token?${new URLSearchParams(params).toString()}`,
      write: true,
      // A code and a refresh token are single use: a 5xx may hide a grant that spent it.
      quickRetry: false,
      secrets: [grantValue, this.config.clientSecret, ...moreSecrets],
    };
    const response = await this.http.send(request);
    if (!isSuccess(response)) {
      const error = this.http.failure(request, response);
      if (error.code === 'invalid_grant' || error.code === 'invalid_client') {
        throw new AtsError(actionFor(error.code, grant), {
          kind: 'auth',
          endpoint: error.endpoint,
          status: error.status,
          atsMessage: error.atsMessage,
          code: error.code,
        });
      }
      throw error;
    }
    const body = response.body;
    if (
      !isRecord(body) ||
      typeof body['access_token'] !== 'string' ||
      typeof body['refresh_token'] !== 'string'
    ) {
      throw this.http.unexpected(request, response, 'access_token and refresh_token');
    }
    const expiresIn = Number(body['expires_in']);
    return {
      accessToken: body['access_token'],
      refreshToken: body['refresh_token'],
      // Documented as 600 s; a missing value is read as that rather than failing a working login.
      expiresInSeconds: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 600,
    };
  }
}

function actionFor(
  code: 'invalid_grant' | 'invalid_client',
  grant: 'authorization_code' | 'refresh_token',
): string {
  if (code === 'invalid_client') {
    return 'ATS-B refused the platform\u2019s OAuth client ID or secret: check the service configuration';
  }
  return grant === 'refresh_token'
    ? 'ATS-B no longer accepts this connection\u2019s authorization (refresh token invalid, used or revoked): ' +
        'an admin must authorize the connector again'
    : 'ATS-B refused the authorization code (expired, already used or for another redirect URI): ' +
        'start the login again';
}
