import {
  AtsError,
  AtsHttp,
  isAllowedHost,
  isRecord,
  isSuccess,
  type AtsHttpOptions,
  type AtsRequest,
} from '@connector/ats-http';
import { ATS_B_DEFAULT_RETRY_AFTER_MS, ATS_B_NAME } from './ats-b.protocol';
import type {
  AtsBDataCentre,
  AtsBLoginInfo,
  AtsBOAuthConfig,
  AtsBLoginSession,
  AtsBTokenSet,
} from './ats-b.types';

/**
 * ATS-B's OAuth and REST login (ats-b.md "Flow"). Token parameters travel in the query string, as the vendor
 * documents; they are never put in endpoint labels or error messages. The configured addresses are the
 * vendor's routers: a customer served by another data centre is answered with a 307 there, which is followed
 * to the vendor's own hosts only (ats-b.md "Data centres"), and the data centre reached is returned so the
 * caller keeps it for the connector's next refresh and login.
 */
export class AtsBOAuthClient {
  private readonly http: AtsHttp;
  private readonly oauthUrl: string;
  private readonly restLoginUrl: string;
  /** The vendor's hosts: ATS_B_ALLOWED_HOSTS and the configured addresses' own. */
  private readonly allowedHosts: readonly string[];

  constructor(
    private readonly config: AtsBOAuthConfig,
    options: AtsHttpOptions = {},
  ) {
    this.oauthUrl = baseUrlOf(config.oauthUrl);
    this.restLoginUrl = baseUrlOf(config.restLoginUrl);
    this.allowedHosts = [...(config.allowedHosts ?? []), hostOf(this.oauthUrl), hostOf(this.restLoginUrl)];
    this.http = new AtsHttp(
      ATS_B_NAME,
      { ...options, redirects: { allowedHosts: this.allowedHosts, onRefused: config.onRefused } },
      ATS_B_DEFAULT_RETRY_AFTER_MS,
    );
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
   * is `ambiguous` and the caller must not simply retry with the old one. Sent to `oauthUrl` (the connector's
   * data centre, checked against the vendor's hosts first) or the configured one.
   */
  async refresh(refreshToken: string, oauthUrl?: string): Promise<AtsBTokenSet> {
    return this.token(
      'refresh_token',
      refreshToken,
      {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: this.config.clientId,
        client_secret: this.config.clientSecret,
      },
      [],
      oauthUrl,
    );
  }

  /**
   * Access token → BhRestToken and the customer's restUrl, at `restLoginUrl` (the connector's data centre)
   * or the configured one. The vendor rate-limits logins: never loop.
   */
  async login(accessToken: string, restLoginUrl?: string): Promise<AtsBLoginSession> {
    const endpoint = 'POST /rest-services/login';
    const base = this.vendorBase(restLoginUrl, this.restLoginUrl, endpoint);
    const query = new URLSearchParams({ version: '*', access_token: accessToken });
    const request: AtsRequest = {
      endpoint,
      method: 'POST',
      url: `${base}/login?${query.toString()}`,
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
    // Where every data call will carry the session token: the vendor's hosts only.
    this.vendorBase(restUrl, restUrl, endpoint);
    return {
      bhRestToken: body['BhRestToken'],
      restUrl,
      restLoginUrl: baseBefore(response.url, 'login') ?? base,
    };
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
    oauthUrl?: string,
  ): Promise<AtsBTokenSet> {
    const endpoint = `POST /oauth/token (${grant})`;
    const base = this.vendorBase(oauthUrl, this.oauthUrl, endpoint);
    const request: AtsRequest = {
      endpoint,
      method: 'POST',
      url: `${base}/token?${new URLSearchParams(params).toString()}`,
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
      oauthUrl: baseBefore(response.url, 'token') ?? base,
    };
  }

  /**
   * A connector's kept data centre, checked before its refresh token is spent: the vendor's hosts only
   * (refused, a permanent error naming the host, and reported otherwise).
   */
  checkDataCentre(dataCentre: Partial<AtsBDataCentre>): void {
    this.vendorBase(dataCentre.oauthUrl, this.oauthUrl, 'POST /oauth/token (refresh_token)');
    this.vendorBase(dataCentre.restLoginUrl, this.restLoginUrl, 'POST /rest-services/login');
  }

  /**
   * A data centre's address kept with a connector (or a session's restUrl), checked before anything is sent
   * there: under the vendor's hosts, or refused (a permanent error naming the host) and reported.
   */
  private vendorBase(url: string | undefined, fallback: string, endpoint: string): string {
    if (url === undefined) return fallback;
    let parsed: URL | undefined;
    try {
      parsed = new URL(baseUrlOf(url));
    } catch {
      parsed = undefined;
    }
    if (parsed && isAllowedHost(parsed.hostname, this.allowedHosts)) return baseUrlOf(url);
    const host = parsed?.host ?? 'an unreadable address';
    const reason = `not one of ${ATS_B_NAME}'s allowed hosts (ATS_B_ALLOWED_HOSTS)`;
    this.config.onRefused?.({ endpoint, host, reason });
    throw new AtsError(`${ATS_B_NAME} ${endpoint}: the address at ${host} was refused, ${reason}`, {
      kind: 'permanent',
      endpoint,
      code: 'address_not_allowed',
    });
  }
}

/** A URL's host name; '' (matching nothing) for what is not a URL. */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/** An address as configured or kept: trimmed, without trailing slashes. */
const baseUrlOf = (url: string): string => url.trim().replace(/\/+$/, '');

/**
 * The base an answer came from: `https://auth-dc2…/oauth` for `https://auth-dc2…/oauth/token?…`. Undefined
 * when the last hop's path does not end in `/{last}` (then the address asked is kept).
 */
function baseBefore(url: string, last: string): string | undefined {
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/\/+$/, '');
  return path.endsWith(`/${last}`) ? `${parsed.origin}${path.slice(0, -last.length - 1)}` : undefined;
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
