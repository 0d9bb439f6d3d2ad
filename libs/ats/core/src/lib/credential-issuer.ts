import type { OutboundGuard } from '@connector/ats-http';
import type { AtsAccess } from '@connector/contracts';
import type { PostgresDailyQuota } from '@connector/rate-limiter';
import type { AtsPart } from './ats-part';
import type { AtsSettings } from './ats-settings';

/** The access auth-gateway keeps sealed for a connector. */
export interface StoredAccess {
  accessToken: string;
  accessTokenExpiresAt: string;
  /** ATS-B: the REST session. */
  bhRestToken?: string;
  restUrl?: string;
  /**
   * ATS-B: the customer's data centre (its OAuth and REST login addresses), learned at the login and kept
   * here, sealed and bound to the connector, for every refresh and login after it. Absent: the configured ones.
   */
  oauthUrl?: string;
  restLoginUrl?: string;
}

export interface CredentialInput {
  connectorId: string;
  /** Whose connector: an ATS-A quota plan is the account's own (ats-budget.ts). */
  accountId: string;
  baseUrl: string | null;
  clientId: string | null;
  /** ATS-A clientSecret or ATS-B refresh token, opened. */
  secret: string;
  current?: StoredAccess;
}

export interface IssuedAccess {
  access: StoredAccess;
  /** Until when workers may use it without asking again. */
  expiresAt: Date;
}

/**
 * How one ATS type turns a stored secret into access: auth-gateway's part of an adapter (`credentialIssuer`).
 * One implementation per ATS: adding an ATS means adding an issuer, not branching on the type elsewhere.
 */
export interface CredentialIssuer extends AtsPart {
  /**
   * Fresh access. A secret that rotates on the way (ATS-B refresh tokens are single use) is announced with
   * `hooks.beforeSpend` and handed to `hooks.persistSecret` before the new access is used for anything.
   */
  renew(input: CredentialInput, hooks: RenewalHooks): Promise<IssuedAccess>;
  /** A cheap check that `current` still works: a later expiry, or undefined when it must be renewed. */
  revalidate(input: CredentialInput & { current: StoredAccess }): Promise<Date | undefined>;
  /** What a worker gets. */
  toAtsAccess(input: { baseUrl: string | null }, access: StoredAccess, expiresAt: Date): AtsAccess;
  /** The token a worker would report back when the ATS refuses it. */
  fingerprintOf(access: StoredAccess): string;
}

/** What an issuer tells the service around spending a single-use secret. */
export interface RenewalHooks {
  /** Called (and awaited) right before a single-use secret is sent: records the in-flight marker. */
  beforeSpend(): Promise<void>;
  /**
   * Stores the rotated secret durably (with the access token it came with, so a failed login that follows
   * does not spend another refresh). Resolves only once it is stored; retries on its own.
   */
  persistSecret(secret: string, access?: StoredAccess): Promise<void>;
}

/** What auth-gateway hands an adapter to build its credential issuer with (once per process). */
export interface CredentialIssuerDeps {
  /** Every ATS call of the gateway (tokens, logins) goes through it. */
  readonly guard: OutboundGuard;
  /** The daily quota the gateway's token requests take from (the workers' table). */
  readonly quota: PostgresDailyQuota;
  readonly logger: { warn(message: string): void };
  /** The adapter's own settings (`AtsAdapter.settings`, e.g. ATS-B's OAuth client), as the gateway read them. */
  readonly settings: AtsSettings;
}

/** An adapter's `credentialIssuer`: builds its issuer from what auth-gateway hands over. */
export type CredentialIssuerFactory = (deps: CredentialIssuerDeps) => CredentialIssuer;
