import { createHash } from 'node:crypto';
import {
  Equals,
  IsArray,
  IsBase64,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';

/**
 * Requests to auth-gateway (request-reply on `connector.internal`, see RpcClient). Not part of the public
 * contract. Replies are typed by the `*Reply` interfaces; an error reply carries one of `AuthErrorCode`.
 */

export const AuthErrorCode = {
  /** The ATS refused the credentials (wrong clientSecret, revoked refresh token). */
  AuthFailed: 'AUTH_FAILED',
  /** The connector needs a new interactive authorization before anything can be done with it. */
  AuthorizationRequired: 'AUTHORIZATION_REQUIRED',
  /** The ATS address is not allowed (not https in production, private address, malformed). */
  InvalidUrl: 'INVALID_URL',
  /** No answer from the ATS (DNS, connection refused, timeout). */
  Unreachable: 'UNREACHABLE',
  /** The ATS answered with an error that is not about the credentials. */
  AtsError: 'ATS_ERROR',
  /**
   * No token now for lack of ATS budget: the daily quota is spent, or the token endpoint answered 429 and the
   * customer system is paused until the reset it named (see the shared quota for when).
   */
  RateLimited: 'RATE_LIMITED',
  /** The ATS does not offer a vacancy status the connector is configured with (the message names those it offers). */
  UnknownStatuses: 'UNKNOWN_STATUSES',
  /** The OAuth `state` is unknown, used, expired or not this browser's. */
  InvalidState: 'INVALID_STATE',
  NotFound: 'NOT_FOUND',
  /** auth-gateway's slots for ATS calls are all taken: ask again after the reply's `retryAfterMs`. */
  Busy: 'BUSY',
  /**
   * The request's sealed secret does not open: sealed for another request (type, account, connector, id), or
   * under a key auth-gateway does not hold (REQUEST_SEAL_KEYS differ between the registry and the gateway).
   */
  InvalidSeal: 'INVALID_SEAL',
  /**
   * The request is not one auth-gateway can act on: an ATS type that is not registered or has no such set-up,
   * a config its adapter's class refuses, a secret in clear (the transport answers the same code for a
   * message that fails its contract).
   */
  InvalidRequest: 'INVALID_REQUEST',
} as const;
export type AuthErrorCodeName = (typeof AuthErrorCode)[keyof typeof AuthErrorCode];

/**
 * A secret sealed by connector-registry for auth-gateway alone (AES-256-GCM under `REQUEST_SEAL_KEYS`, `kid`
 * naming the key), bound to its request: the associated data is the JSON array
 * `["request-seal/1", type, accountId, connectorId or null, request id]`, so it opens in no other request.
 */
export class SealedSecretDto {
  @Equals(1) v!: 1;
  @IsString() @IsNotEmpty() @MaxLength(100) kid!: string;
  @IsBase64() @MaxLength(100) iv!: string;
  @IsBase64() @MaxLength(100) tag!: string;
  @IsBase64() @MaxLength(1000) data!: string;
}

/**
 * A connector's config as it travels to auth-gateway: the fields of its ATS's config class (its adapter's
 * `clientCredentials.configClass`, which auth-gateway checks it against), each secret field (ATS-A:
 * `clientSecret`) a `SealedSecretDto`. A secret in clear is refused (INVALID_REQUEST).
 */
export type SealedConfig = Record<string, unknown>;

/**
 * `auth.connection.test`: obtain access and make one cheap read (the vacancy statuses); nothing is stored.
 * The secret is sealed without a connector (none is saved yet). `type`: a registered ATS with the
 * `client-credentials` capability (auth-gateway checks it against the registry).
 * `openStatuses`: the names the connector is configured with, each of which the ATS must offer; without them,
 * at least one of its default names must be offered.
 */
export class ConnectionTestRequestDto {
  @IsString() @IsNotEmpty() @MaxLength(100) type!: string;
  @IsObject() config!: SealedConfig;
  @IsOptional() @IsArray() @IsString({ each: true }) @IsNotEmpty({ each: true }) openStatuses?: string[];
}
export type ConnectionTestReply =
  { ok: true } | { ok: false; error: { code: AuthErrorCodeName; message: string } };

/** `auth.credentials.save`: test (as `auth.connection.test`), then store the credentials (encrypted). */
export class CredentialsSaveRequestDto {
  @IsString() @IsNotEmpty() connectorId!: string;
  @IsString() @IsNotEmpty() @MaxLength(100) type!: string;
  @IsObject() config!: SealedConfig;
  @IsOptional() @IsArray() @IsString({ each: true }) @IsNotEmpty({ each: true }) openStatuses?: string[];
}
export interface CredentialsSaveReply {
  /** The address as it will be used: `/api` and trailing slashes removed. */
  baseUrl: string;
  /** The open status names checked against the ATS: those asked for, or the defaults the ATS offers. */
  openStatuses: string[];
}

/**
 * `auth.authorization.start`: an interactive login's URL whose `state` is bound to this connector and browser.
 * `type`: the connector's ATS (one with `interactive-login`); left out, the one such ATS when there is one.
 */
export class AuthorizationStartRequestDto {
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(100) type?: string;
  @IsString() @IsNotEmpty() connectorId!: string;
  /** Identifies the admin (e.g. a hash of their API key id). */
  @IsString() @IsNotEmpty() adminId!: string;
  /** A random value the registry also sets as an HttpOnly cookie; the callback must bring it back. */
  @IsString() @IsNotEmpty() browserNonce!: string;
}
export interface AuthorizationStartReply {
  authorizeUrl: string;
  expiresAt: string;
}

/**
 * `auth.authorization.complete`: the OAuth callback's code and state, with the browser's nonce. `type`: the
 * ATS the callback's path names (`/oauth/{type}/callback`); left out, as for the start.
 */
export class AuthorizationCompleteRequestDto {
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(100) type?: string;
  @IsString() @IsNotEmpty() @MaxLength(2000) code!: string;
  @IsString() @IsNotEmpty() @MaxLength(500) state!: string;
  @IsString() @IsNotEmpty() browserNonce!: string;
}
export interface AuthorizationCompleteReply {
  connectorId: string;
  accountId: string;
}

/** `auth.credentials.erase`: forget every secret and token of a connector (it is being deleted). */
export class CredentialsEraseRequestDto {
  @IsString() @IsNotEmpty() connectorId!: string;
}

/** What `credentials.requested` answers: what a worker needs to call the ATS, valid until `expiresAt`. */
export interface AtsAccess {
  /** The connector's ATS: a name registered in `@connector/ats-registry`. */
  type: string;
  expiresAt: string;
  /** The rest is the ATS's own (its adapter's access type, e.g. ATS-A `baseUrl` and `accessToken`). */
  [field: string]: string;
}

/**
 * Where an ATS's login sends the browser back (connector-registry): one path per interactive-login ATS, its
 * `type` in it (ATS-B's is `/oauth/ats-b/callback`, as registered with its vendor).
 */
export const OAUTH_CALLBACK_PATH = '/oauth/:type/callback';

/**
 * Names an access without repeating it: a worker reports `rejected: credentialFingerprint(token)` when
 * the ATS answers 401, and the gateway renews only if that is still the current one.
 */
export function credentialFingerprint(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 16);
}
