import type {
  CredentialInput,
  CredentialIssuer,
  CredentialIssuerDeps,
  IssuedAccess,
  RenewalHooks,
  StoredAccess,
} from '@connector/ats-core';
import { type AtsAccess, credentialFingerprint } from '@connector/contracts';
import { AtsError, type OutboundGuard } from '@connector/ats-http';
import { AtsBClient } from '../client/ats-b.client';
import type { AtsBOAuthClient } from '../client/ats-b-oauth.client';
import type { AtsBDataCentre } from '../client/ats-b.types';
import { atsBOAuthClientOf } from './ats-b-settings';

/** Workers come back for a session at least this often, so an idle-expired one is noticed by a ping. */
const SESSION_RECHECK_MS = 5 * 60_000;
const ACCESS_TOKEN_MARGIN_MS = 60_000;

/**
 * ATS-B: a REST session (BhRestToken + restUrl) from an OAuth access token, which comes from a single-use
 * refresh token. The rotated refresh token is persisted before anything uses the new access token.
 */
export class AtsBCredentialIssuer implements CredentialIssuer {
  readonly atsType = 'ats-b';

  constructor(
    private readonly oauth: AtsBOAuthClient,
    private readonly guard: OutboundGuard,
  ) {}

  async renew(input: CredentialInput, hooks: RenewalHooks): Promise<IssuedAccess> {
    const current = input.current;
    // The customer's data centre as its login found it (sealed with the access, bound to this connector);
    // checked against the vendor's hosts before the refresh token is spent there.
    const kept = { oauthUrl: current?.oauthUrl, restLoginUrl: current?.restLoginUrl };
    this.oauth.checkDataCentre(kept);
    if (current && Date.parse(current.accessTokenExpiresAt) - Date.now() > ACCESS_TOKEN_MARGIN_MS) {
      try {
        return await this.login(current.accessToken, current.accessTokenExpiresAt, kept);
      } catch (error) {
        // The access token was refused: fall through to a refresh.
        if (!(error instanceof AtsError) || error.kind !== 'auth') throw error;
      }
    }
    await hooks.beforeSpend();
    const tokens = await this.oauth.refresh(input.secret, kept.oauthUrl);
    // A customer moved to another data centre is redirected there once: kept from now on.
    const dataCentre = { ...kept, oauthUrl: tokens.oauthUrl };
    const accessTokenExpiresAt = new Date(Date.now() + tokens.expiresInSeconds * 1000).toISOString();
    await hooks.persistSecret(tokens.refreshToken, {
      accessToken: tokens.accessToken,
      accessTokenExpiresAt,
      ...definedOf(dataCentre),
    });
    try {
      return await this.login(tokens.accessToken, accessTokenExpiresAt, dataCentre);
    } catch (error) {
      // A login refused right after a refresh says nothing about the refresh token just stored.
      if (!(error instanceof AtsError) || error.kind !== 'auth') throw error;
      throw new AtsError(`ATS-B refused the REST login right after a refresh: ${error.message}`, {
        kind: 'transient',
        endpoint: error.endpoint,
        status: error.status,
        atsMessage: error.atsMessage,
        code: 'login_after_refresh',
      });
    }
  }

  /** After the code exchange (at `oauthUrl`, the data centre that issued the tokens): the first session. */
  async firstSession(
    accessToken: string,
    expiresInSeconds: number,
    oauthUrl?: string,
  ): Promise<IssuedAccess> {
    const expiresAt = new Date(Date.now() + expiresInSeconds * 1000).toISOString();
    return this.login(accessToken, expiresAt, { oauthUrl });
  }

  async revalidate(input: CredentialInput & { current: StoredAccess }): Promise<Date | undefined> {
    const { bhRestToken, restUrl } = input.current;
    if (!bhRestToken || !restUrl) return undefined;
    const client = new AtsBClient({
      guard: this.guard,
      session: async ({ rejected }) => {
        if (rejected) throw new AtsError('session expired', { kind: 'auth', endpoint: 'GET ping' });
        return { bhRestToken, restUrl };
      },
      timeoutMs: 10_000,
    });
    try {
      const { sessionExpires } = await client.ping();
      return new Date(Math.min(sessionExpires - 30_000, Date.now() + SESSION_RECHECK_MS));
    } catch (error) {
      if (error instanceof AtsError && error.kind === 'auth') return undefined;
      throw error;
    }
  }

  toAtsAccess(_input: { baseUrl: string | null }, access: StoredAccess, expiresAt: Date): AtsAccess {
    return {
      type: 'ats-b',
      restUrl: access.restUrl ?? '',
      bhRestToken: access.bhRestToken ?? '',
      expiresAt: expiresAt.toISOString(),
    };
  }

  fingerprintOf(access: StoredAccess): string {
    return credentialFingerprint(access.bhRestToken ?? access.accessToken);
  }

  /** A REST session at the data centre's login address; the access keeps the data centre for the next. */
  private async login(
    accessToken: string,
    accessTokenExpiresAt: string,
    dataCentre: Partial<AtsBDataCentre>,
  ): Promise<IssuedAccess> {
    const session = await this.oauth.login(accessToken, dataCentre.restLoginUrl);
    return {
      access: {
        accessToken,
        accessTokenExpiresAt,
        bhRestToken: session.bhRestToken,
        restUrl: session.restUrl,
        ...definedOf({ oauthUrl: dataCentre.oauthUrl, restLoginUrl: session.restLoginUrl }),
      },
      expiresAt: new Date(Date.now() + SESSION_RECHECK_MS),
    };
  }
}

/**
 * The adapter's `credentialIssuer`: auth-gateway builds it with its guard and this adapter's settings (the
 * platform's OAuth client at ATS-B, `ATS_B_SETTINGS`).
 */
export const atsBCredentialIssuer = (deps: CredentialIssuerDeps): AtsBCredentialIssuer =>
  new AtsBCredentialIssuer(atsBOAuthClientOf(deps.settings, deps.guard, deps.logger), deps.guard);

/** The addresses known (an access written before data centres were kept has none). */
const definedOf = (dataCentre: Partial<AtsBDataCentre>): Partial<AtsBDataCentre> =>
  Object.fromEntries(Object.entries(dataCentre).filter(([, value]) => typeof value === 'string'));
