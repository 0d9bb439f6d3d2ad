import type { OutboundGuard } from '@connector/ats-http';
import type { AtsSettings } from './ats-settings';
import type { IssuedAccess } from './credential-issuer';

/**
 * The interactive login (capability `interactive-login`): auth-gateway's generic flow (the OAuth
 * authorization-code round trip on passport-oauth2: state, PKCE, the callback's checks, storing) runs the ATS's
 * own steps, which live in its adapter. The platform's OAuth client at the ATS is the adapter's settings.
 */

/** What auth-gateway hands an adapter to build its login with (once per process). */
export interface InteractiveLoginDeps {
  /** Every ATS call of the gateway goes through it. */
  readonly guard: OutboundGuard;
  /** The adapter's own settings (`AtsAdapter.settings`), as read. */
  readonly settings: AtsSettings;
  /** For what an operator should see (a redirect or an address refused). */
  readonly logger: { warn(message: string): void };
}

/** The tokens an authorization code is exchanged for. */
export interface LoginTokens {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly expiresInSeconds: number;
  /**
   * Per-connector addresses the exchange learned (an ATS of several data centres: where this customer's
   * tokens were issued), handed back to `firstSession` as they are.
   */
  readonly addresses?: Readonly<Record<string, string>>;
}

/**
 * The ATS's steps of a login. The flow stores `refreshToken` as the connector's secret and `firstSession`'s
 * access (sealed, per connector): a step that learns per-connector addresses during the login (a data
 * centre's `oauthUrl` and `restUrl`, issue 36) returns them in that access, where later renewals find them.
 */
export interface InteractiveLogin {
  /** The authorization-code round trip's ends: passport-oauth2's options. */
  readonly oauth: {
    readonly authorizeUrl: string;
    readonly tokenUrl: string;
    readonly clientId: string;
    readonly clientSecret: string;
    /** The registry's callback, `/oauth/{type}/callback` on its public address. */
    readonly callbackUrl: string;
  };
  /** Code (and PKCE verifier) to tokens, as the ATS wants them asked (ATS-B: in the query string). */
  exchangeCode(code: string, codeVerifier?: string): Promise<LoginTokens>;
  /** The first access after the exchange (ATS-B: its REST session). */
  firstSession(tokens: LoginTokens): Promise<IssuedAccess>;
  /** Whether a failure is the ATS refusing the platform's own OAuth client (an operator alert). */
  clientRejected(error: unknown): boolean;
}

/** An adapter's `interactiveLogin`: builds its login steps from what auth-gateway hands over. */
export type InteractiveLoginFactory = (deps: InteractiveLoginDeps) => InteractiveLogin;
