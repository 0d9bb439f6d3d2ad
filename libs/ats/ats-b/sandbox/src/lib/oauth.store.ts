import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AtsBError, OAuthError } from './ats-b.error';

export interface OAuthClientConfig {
  clientId: string;
  clientSecret: string;
  /** Exact redirect URIs; when absent any http(s) loopback redirect is allowed. */
  redirectUris?: string[];
}

export interface SandboxUser {
  username: string;
  password: string;
  /** With `dataCentres`: the data centre that holds this user's corporation (default: the first). */
  dataCentre?: string;
}

/** What a data centre hands out and only it honours. */
export type IssuedKind = 'code' | 'accessToken' | 'refreshToken' | 'session';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}

export interface RestSession {
  token: string;
  username: string;
  corpToken: string;
  expiresAt: number;
}

export interface OAuthStoreConfig {
  client: OAuthClientConfig;
  users: SandboxUser[];
  accessTokenTtlSeconds: number;
  sessionTtlSeconds: number;
  codeTtlSeconds: number;
  /** Bullhorn sessions time out after inactivity, so each data call pushes expiry forward. */
  sessionSliding: boolean;
  /** A tenant's name: its codes and tokens carry it (`code-<tag>.…`), so the vendor-wide endpoints find it. */
  tokenTag?: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const TAG_END = '.';

/** The tenant a code, access or refresh token belongs to (its tag), if any. */
export function tokenTagOf(token: string): string | undefined {
  const dash = token.indexOf('-');
  const end = token.indexOf(TAG_END, dash + 1);
  return dash > 0 && end > dash + 1 ? token.slice(dash + 1, end) : undefined;
}

/** Codes, access tokens, single-use refresh tokens and BhRestToken sessions. */
export class OAuthStore {
  private codes = new Map<
    string,
    {
      username: string;
      clientId: string;
      redirectUri: string | null;
      expiresAt: number;
      pkce?: PkceChallenge;
    }
  >();
  private accessTokens = new Map<string, { username: string; expiresAt: number }>();
  private refreshTokens = new Map<string, { username: string; clientId: string }>();
  private sessions = new Map<string, RestSession>();
  private rejectNext = false;
  /** The most recent codes, tokens and sessions handed out, so tests can check none of them leaked anywhere. */
  private readonly recent: string[] = [];

  constructor(
    readonly config: OAuthStoreConfig,
    private readonly now: () => number = Date.now,
  ) {}

  clear(): void {
    this.codes.clear();
    this.accessTokens.clear();
    this.refreshTokens.clear();
    this.sessions.clear();
    this.rejectNext = false;
  }

  isKnownClient(clientId: string | undefined): boolean {
    return clientId === this.config.client.clientId;
  }

  isRedirectAllowed(uri: string): boolean {
    const listed = this.config.client.redirectUris;
    if (listed && listed.length > 0) return listed.includes(uri);
    try {
      const url = new URL(uri);
      return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK.has(url.hostname);
    } catch {
      return false;
    }
  }

  /** With one registered URI Bullhorn lets authorize omit redirect_uri; otherwise it is needed. */
  defaultRedirect(): string | undefined {
    const listed = this.config.client.redirectUris;
    return listed && listed.length === 1 ? listed[0] : undefined;
  }

  checkUser(username: string | undefined, password: string | undefined): boolean {
    if (!username || password === undefined) return false;
    const user = this.config.users.find((u) => u.username === username);
    return user !== undefined && safeEqual(user.password, password);
  }

  issueCode(username: string, clientId: string, redirectUri: string | null, pkce?: PkceChallenge): string {
    const code = this.token('code-');
    this.remember(code);
    this.codes.set(code, {
      username,
      clientId,
      redirectUri,
      expiresAt: this.now() + this.config.codeTtlSeconds * 1000,
      ...(pkce ? { pkce } : {}),
    });
    return code;
  }

  exchangeCode(params: {
    code?: string;
    clientId?: string;
    clientSecret?: string;
    redirectUri?: string;
    codeVerifier?: string;
  }): TokenResponse {
    this.checkClient(params.clientId, params.clientSecret);
    if (!params.code) throw new OAuthError(400, 'invalid_request', 'code is required');
    const entry = this.codes.get(params.code);
    // A code is consumed on first presentation, whatever the outcome: it is single use.
    this.codes.delete(params.code);
    if (!entry)
      throw new OAuthError(400, 'invalid_grant', 'Invalid, expired or already used authorization code');
    if (entry.expiresAt <= this.now())
      throw new OAuthError(400, 'invalid_grant', 'Authorization code expired');
    if (entry.clientId !== params.clientId)
      throw new OAuthError(400, 'invalid_grant', 'Code was issued to another client');
    if (entry.redirectUri !== null && entry.redirectUri !== params.redirectUri) {
      throw new OAuthError(400, 'invalid_grant', 'redirect_uri does not match the one used to authorize');
    }
    checkPkce(entry.pkce, params.codeVerifier);
    return this.issueTokens(entry.username, entry.clientId);
  }

  refresh(params: { refreshToken?: string; clientId?: string; clientSecret?: string }): TokenResponse {
    this.checkClient(params.clientId, params.clientSecret);
    if (!params.refreshToken) throw new OAuthError(400, 'invalid_request', 'refresh_token is required');
    const entry = this.refreshTokens.get(params.refreshToken);
    // Dead the moment it is presented, even if the answer never reaches the caller.
    this.refreshTokens.delete(params.refreshToken);
    if (!entry || entry.clientId !== params.clientId)
      throw new OAuthError(400, 'invalid_grant', 'Invalid, revoked or already used refresh token');
    if (this.rejectNext) {
      this.rejectNext = false;
      throw new OAuthError(400, 'invalid_grant', 'Refresh token revoked');
    }
    return this.issueTokens(entry.username, entry.clientId);
  }

  /** The partner re-generated its client secret in the vendor's portal: the old one is refused from now on. */
  rotateClientSecret(clientSecret: string): void {
    if (!clientSecret) throw new OAuthError(400, 'invalid_request', 'clientSecret is required');
    this.config.client = { ...this.config.client, clientSecret };
  }

  rejectNextRefresh(): void {
    this.rejectNext = true;
  }

  /** POST /rest-services/login: an access token (reusable within its life) → a BhRestToken session. */
  login(accessToken: string | undefined): RestSession {
    const entry = accessToken ? this.accessTokens.get(accessToken) : undefined;
    if (!entry || entry.expiresAt <= this.now()) {
      throw new AtsBError(
        401,
        'errors.authentication.invalidOAuthToken',
        'Invalid or expired OAuth access token.',
      );
    }
    const session: RestSession = {
      token: randomBytes(16)
        .toString('hex')
        .replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-'),
      username: entry.username,
      corpToken: corpTokenOf(entry.username),
      expiresAt: this.now() + this.config.sessionTtlSeconds * 1000,
    };
    this.remember(session.token);
    this.sessions.set(session.token, session);
    return session;
  }

  /** The live session for a BhRestToken, touched when sliding expiry is on; undefined when bad or timed out. */
  session(bhRestToken: string, corpToken: string): RestSession | undefined {
    const s = this.sessions.get(bhRestToken);
    if (!s || s.corpToken !== corpToken) return undefined;
    const now = this.now();
    if (s.expiresAt <= now) {
      this.sessions.delete(bhRestToken);
      return undefined;
    }
    if (this.config.sessionSliding) s.expiresAt = now + this.config.sessionTtlSeconds * 1000;
    return s;
  }

  /** Whether this store handed out `value` and holds it still (a used code or refresh token is gone). No side effect. */
  issued(kind: IssuedKind, value: string): boolean {
    switch (kind) {
      case 'code':
        return this.codes.has(value);
      case 'accessToken':
        return this.accessTokens.has(value);
      case 'refreshToken':
        return this.refreshTokens.has(value);
      case 'session':
        return this.sessions.has(value);
    }
  }

  hasUser(username: string): boolean {
    return this.config.users.some((u) => u.username === username);
  }

  recentlyIssued(): string[] {
    return [...this.recent];
  }

  private remember(...secrets: string[]): void {
    this.recent.push(...secrets);
    if (this.recent.length > 1_000) this.recent.splice(0, this.recent.length - 1_000);
  }

  expireSessions(): number {
    const n = this.sessions.size;
    this.sessions.clear();
    return n;
  }

  revokeRefreshTokens(): number {
    const n = this.refreshTokens.size;
    this.refreshTokens.clear();
    return n;
  }

  counts(): { codes: number; accessTokens: number; refreshTokens: number; sessions: number } {
    return {
      codes: this.codes.size,
      accessTokens: this.accessTokens.size,
      refreshTokens: this.refreshTokens.size,
      sessions: this.sessions.size,
    };
  }

  private checkClient(clientId: string | undefined, clientSecret: string | undefined): void {
    const c = this.config.client;
    if (clientId !== c.clientId || clientSecret === undefined || !safeEqual(c.clientSecret, clientSecret)) {
      throw new OAuthError(401, 'invalid_client', 'Unknown client or bad client secret');
    }
  }

  private token(prefix: string): string {
    const tag = this.config.tokenTag ? `${this.config.tokenTag}${TAG_END}` : '';
    return `${prefix}${tag}${randomBytes(24).toString('base64url')}`;
  }

  private issueTokens(username: string, clientId: string): TokenResponse {
    const access = this.token('at-');
    const refresh = this.token('rt-');
    this.remember(access, refresh);
    this.accessTokens.set(access, {
      username,
      expiresAt: this.now() + this.config.accessTokenTtlSeconds * 1000,
    });
    this.refreshTokens.set(refresh, { username, clientId });
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: this.config.accessTokenTtlSeconds,
      refresh_token: refresh,
    };
  }
}

/** The PKCE challenge an authorization request carried (RFC 7636). */
export interface PkceChallenge {
  challenge: string;
  method: 'S256' | 'plain';
}

/**
 * RFC 7636 §4.6: a code issued with a challenge needs the verifier that hashes to it. A verifier for a code
 * issued without one is refused too (the strict reading; the RFC leaves it open).
 */
function checkPkce(pkce: PkceChallenge | undefined, verifier: string | undefined): void {
  if (!pkce) {
    if (verifier !== undefined) {
      throw new OAuthError(
        400,
        'invalid_request',
        'code_verifier given, but the authorization request had no code_challenge',
      );
    }
    return;
  }
  if (!verifier) throw new OAuthError(400, 'invalid_grant', 'code_verifier is required for this code');
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier))
    throw new OAuthError(400, 'invalid_grant', 'code_verifier is malformed');
  const derived =
    pkce.method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  if (!safeEqual(derived, pkce.challenge))
    throw new OAuthError(400, 'invalid_grant', 'code_verifier does not match the code_challenge');
}

/** One customer (corporation) per user; the corpToken is stable so restUrl survives restarts. */
function corpTokenOf(username: string): string {
  return createHash('sha256').update(username).digest('hex').slice(0, 6);
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
