import { createHash } from 'node:crypto';
import { Type } from 'class-transformer';
import {
  Equals,
  IsArray,
  IsBase64,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
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
  /** ATS-A does not offer a vacancy status the connector is configured with (the message names those it offers). */
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
} as const;
export type AuthErrorCodeName = (typeof AuthErrorCode)[keyof typeof AuthErrorCode];

/** ATS-A credentials in clear: as the registry's connector kind hands them over, and auth-gateway opens them. */
export interface AtsAConfigDto {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

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

/** ATS-A credentials as they travel: `clientSecret` sealed (a clear one is refused, INVALID_REQUEST). */
export class AtsASealedConfigDto {
  @IsString() @IsNotEmpty() @MaxLength(500) baseUrl!: string;
  @IsString() @IsNotEmpty() @MaxLength(200) clientId!: string;
  @IsObject({ message: 'clientSecret must be sealed (REQUEST_SEAL_KEYS), never sent in clear' })
  @ValidateNested()
  @Type(() => SealedSecretDto)
  clientSecret!: SealedSecretDto;
}

/**
 * `auth.connection.test`: get a token and make one cheap read (the vacancy statuses); nothing is stored. The
 * secret is sealed without a connector (none is saved yet).
 * `openStatuses`: the names the connector is configured with, each of which ATS-A must offer; without them,
 * at least one of the default names must be offered.
 */
export class ConnectionTestRequestDto {
  @Equals('ats-a') type!: 'ats-a';
  @IsObject() @ValidateNested() @Type(() => AtsASealedConfigDto) config!: AtsASealedConfigDto;
  @IsOptional() @IsArray() @IsString({ each: true }) @IsNotEmpty({ each: true }) openStatuses?: string[];
}
export type ConnectionTestReply =
  { ok: true } | { ok: false; error: { code: AuthErrorCodeName; message: string } };

/** `auth.credentials.save`: test (as `auth.connection.test`), then store the ATS-A credentials (encrypted). */
export class CredentialsSaveRequestDto {
  @IsString() @IsNotEmpty() connectorId!: string;
  @Equals('ats-a') type!: 'ats-a';
  @IsObject() @ValidateNested() @Type(() => AtsASealedConfigDto) config!: AtsASealedConfigDto;
  @IsOptional() @IsArray() @IsString({ each: true }) @IsNotEmpty({ each: true }) openStatuses?: string[];
}
export interface CredentialsSaveReply {
  /** The address as it will be used: `/api` and trailing slashes removed. */
  baseUrl: string;
  /** The open status names checked against the ATS: those asked for, or the defaults the ATS offers. */
  openStatuses: string[];
}

/** `auth.authorization.start`: an ATS-B login URL whose `state` is bound to this connector and browser. */
export class AuthorizationStartRequestDto {
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

/** `auth.authorization.complete`: the OAuth callback's code and state, with the browser's nonce. */
export class AuthorizationCompleteRequestDto {
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

export const OAUTH_CALLBACK_PATH = '/oauth/ats-b/callback';

/**
 * Names an access without repeating it: a worker reports `rejected: credentialFingerprint(token)` when
 * the ATS answers 401, and the gateway renews only if that is still the current one.
 */
export function credentialFingerprint(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 16);
}
