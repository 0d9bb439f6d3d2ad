import { randomBytes, timingSafeEqual } from 'node:crypto';
import { SCOPES } from '../ats-a.protocol';
import type { AtsASandboxClient } from '../ats-a-sandbox.options';
import { OAuthError } from '../sandbox.error';

export interface IssuedToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

interface TokenGrant {
  clientId: string;
  scopes: ReadonlySet<string>;
  expiresAt: number;
}

const SWEEP_EVERY = 10_000;

export type TokenCheck = { ok: true; clientId: string; scopes: ReadonlySet<string> } | { ok: false };

/** Issues and checks bearer tokens for the API keys of the one customer system the sandbox plays. */
export class TokenService {
  private readonly grants = new Map<string, TokenGrant>();
  private issuedSinceSweep = 0;
  /** The most recent tokens handed out, so tests can check none of them leaked anywhere. */
  private readonly recent: string[] = [];

  constructor(
    private readonly clients: readonly AtsASandboxClient[],
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
    /** Tokens stop working this long before the expires_in they were issued with. */
    private readonly earlyExpirySeconds = 0,
  ) {}

  recentlyIssued(): string[] {
    return [...this.recent];
  }

  /** `body` is the parsed JSON or form body of `POST /api/token`. */
  issue(body: unknown): IssuedToken {
    const input = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const grantType = input['grant_type'];
    if (grantType !== 'client_credentials') {
      throw new OAuthError(grantType === undefined ? 'invalid_request' : 'unsupported_grant_type');
    }
    const clientId = input['client_id'];
    const clientSecret = input['client_secret'];
    if (typeof clientId !== 'string' || typeof clientSecret !== 'string')
      throw new OAuthError('invalid_client');
    const client = this.clients.find((c) => c.clientId === clientId);
    if (!client || !sameSecret(client.clientSecret, clientSecret)) throw new OAuthError('invalid_client');

    const allowed = client.scopes ?? [...SCOPES];
    const requestedRaw = input['scope'];
    if (requestedRaw !== undefined && typeof requestedRaw !== 'string')
      throw new OAuthError('invalid_request');
    const requested = requestedRaw
      ? requestedRaw
          .split(/[\s,]+/)
          .map((s) => s.trim())
          .filter(Boolean)
      : allowed;
    if (requested.some((s) => !allowed.includes(s))) throw new OAuthError('invalid_scope');

    // Expired grants are swept now and then so a long benchmark asking for tokens does not grow without bound.
    if (++this.issuedSinceSweep >= SWEEP_EVERY) this.sweepExpired();
    const token = randomBytes(24).toString('base64url');
    this.recent.push(token);
    if (this.recent.length > 1_000) this.recent.shift();
    this.grants.set(token, {
      clientId,
      scopes: new Set(requested),
      expiresAt: this.now() + Math.max(0, this.ttlSeconds - this.earlyExpirySeconds) * 1000,
    });
    return {
      access_token: token,
      token_type: 'Bearer',
      expires_in: this.ttlSeconds,
      scope: requested.join(','),
    };
  }

  check(authorization: string | undefined): TokenCheck {
    if (!authorization || !authorization.startsWith('Bearer ')) return { ok: false };
    const token = authorization.slice(7).trim();
    const grant = this.grants.get(token);
    if (!grant) return { ok: false };
    if (grant.expiresAt <= this.now()) {
      this.grants.delete(token);
      return { ok: false };
    }
    return { ok: true, clientId: grant.clientId, scopes: grant.scopes };
  }

  private sweepExpired(): void {
    this.issuedSinceSweep = 0;
    const now = this.now();
    for (const [token, grant] of this.grants) if (grant.expiresAt <= now) this.grants.delete(token);
  }

  /** Every current token becomes invalid (fault injection: a revoked key or a server restart). */
  revokeAll(): number {
    const count = this.grants.size;
    this.grants.clear();
    return count;
  }

  activeCount(): number {
    const now = this.now();
    let count = 0;
    for (const grant of this.grants.values()) if (grant.expiresAt > now) count++;
    return count;
  }
}

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
