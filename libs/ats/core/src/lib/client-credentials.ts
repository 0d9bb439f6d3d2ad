import type { AuthErrorCodeName } from '@connector/contracts';
import type { CredentialIssuerDeps, IssuedAccess } from './credential-issuer';

/**
 * The client-credentials set-up (capability `client-credentials`): auth-gateway's generic flow (slots, rate
 * limit, deadline, sealed secrets, storing) runs the ATS's own steps, which live in its adapter. Nothing in
 * auth-gateway or the registry names the ATS or the shape of its config.
 */

/** A set-up step's failure in words an admin can act on, with the reply's code (`AuthErrorCode`). */
export class SetupError extends Error {
  override name = 'SetupError';
  constructor(
    readonly code: AuthErrorCodeName,
    message: string,
  ) {
    super(message);
  }
}

/** What a connection test or a save asks of the ATS's steps. */
export interface SetupInput {
  readonly accountId: string;
  /** The config as the admin typed it, its secrets opened, checked with `configClass`. */
  readonly config: Record<string, unknown>;
  /** Vacancy status names the ATS must offer (without them, one of its defaults must be). */
  readonly openStatuses?: string[];
  /** The whole test's deadline: each call's own timeout. */
  readonly timeoutMs: number;
}

/** What proven credentials give: what auth-gateway stores, and what the registry keeps. */
export interface VerifiedCredentials {
  /** The address as it will be used (stored beside the secret; the registry keeps it in the config). */
  readonly baseUrl: string | null;
  readonly clientId: string | null;
  /** The secret to seal and store (opened). */
  readonly secret: string;
  /** The access the test obtained, kept so the first worker need not ask again. */
  readonly issued: IssuedAccess;
  /** The open status names checked against the ATS: those asked for, or the defaults it offers. */
  readonly openStatuses: string[];
}

/** The ATS's own steps: check the address, obtain access, read its statuses. */
export interface ClientCredentialsSteps {
  /** Throws a `SetupError`, or an error `explain` (then the gateway's generic words) turns into one. */
  verify(input: SetupInput): Promise<VerifiedCredentials>;
  /** The ATS's own words for a failure (e.g. where its API keys are set up); undefined for the generic ones. */
  explain?(error: unknown): SetupError | undefined;
}

/** An adapter's `clientCredentials`: what its config is and how auth-gateway tests it. */
export interface ClientCredentialsSetup {
  /**
   * The config as the admin types it (its connector kind's input class): auth-gateway checks the opened config
   * against it, so a request the registry did not build is refused (INVALID_REQUEST).
   */
  readonly configClass: new () => object;
  /** Its secret fields: sealed for auth-gateway alone on the way (REQUEST_SEAL_KEYS), never sent in clear. */
  readonly secretFields: readonly string[];
  /** The steps, built once per gateway process with what it shares. */
  steps(deps: Omit<CredentialIssuerDeps, 'settings'>): ClientCredentialsSteps;
}
