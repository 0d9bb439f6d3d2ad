import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsString, Matches, Max, Min } from 'class-validator';
import { ADDRESS_ALLOWANCES, type AddressAllowance } from '@connector/ats-clients';
import {
  LOCAL_REQUEST_SEAL_KEYS,
  RequiredInProduction,
  SealKeys,
  ServiceConfig,
} from '@connector/service-kit';

export const SERVICE_NAME = 'auth-gateway';

/** auth-gateway's environment, validated at boot. */
export class AuthGatewayConfig extends ServiceConfig {
  override PORT = 3001;
  /** Handlers running at once; they take the buffered messages in turn by account. */
  @Type(() => Number) @IsInt() @Min(1) @Max(500) CONCURRENCY = 20;
  /** Messages delivered and not yet settled: the buffer the handlers take from. */
  @Type(() => Number) @IsInt() @Min(1) @Max(2000) PREFETCH = 80;
  /** Handlers of one account running at once: one account's slow ATS holds no more than these. */
  @Type(() => Number) @IsInt() @Min(1) @Max(500) PER_KEY_CONCURRENCY = 5;
  /** Messages of one account waiting for a handler; more wait in a retry queue (not an attempt). */
  @Type(() => Number) @IsInt() @Min(1) @Max(2000) PER_KEY_BUFFERED = 20;
  /** Requests of one type handled at once; more are answered BUSY with when to ask again. */
  @Type(() => Number) @IsInt() @Min(1) @Max(1000) REQUEST_CONCURRENCY = 64;
  /** Connection tests handled at once (each may wait on an unknown address until its timeout). */
  @Type(() => Number) @IsInt() @Min(1) @Max(1000) CONNECTION_TEST_CONCURRENCY = 8;
  /** Renewals (ATS token and session calls) at once in this process, and for one customer system. */
  @Type(() => Number) @IsInt() @Min(1) @Max(500) RENEWALS_MAX = 32;
  @Type(() => Number) @IsInt() @Min(1) @Max(100) RENEWALS_PER_SYSTEM = 4;
  /** Access in use that nears its end is renewed ahead by a job: this many per tick (every few seconds). */
  @Type(() => Number) @IsInt() @Min(1) @Max(10_000) RENEW_AHEAD_BATCH = 200;

  /** "<keyId>:<base64 of 32 bytes>[,…]": the first seals new secrets, all open old ones. */
  @SealKeys() ENCRYPTION_KEYS = '';
  /** The keys connector-registry seals its requests' client secrets with (same format; the gateway opens). */
  @SealKeys() REQUEST_SEAL_KEYS = LOCAL_REQUEST_SEAL_KEYS;

  /** The platform's OAuth client at ATS-B (service configuration, never per customer); defaults: the sandbox's. */
  @RequiredInProduction() @IsString() @IsNotEmpty() ATS_B_CLIENT_ID = 'platform-client';
  @RequiredInProduction() @IsString() @IsNotEmpty() ATS_B_CLIENT_SECRET = 'platform-secret';
  @Matches(/^https?:\/\/\S+$/, { message: 'ATS_B_OAUTH_URL must be an http(s) URL' })
  ATS_B_OAUTH_URL = 'https://auth.bullhornstaffing.com/oauth';
  @Matches(/^https?:\/\/\S+$/, { message: 'ATS_B_REST_LOGIN_URL must be an http(s) URL' })
  ATS_B_REST_LOGIN_URL = 'https://rest.bullhornstaffing.com/rest-services';
  /** Where the recruiter's browser logs in, when it reaches ATS-B by another address than this service
   * does (docker compose: the host's port); empty: `${ATS_B_OAUTH_URL}/authorize`. */
  @Matches(/^(https?:\/\/\S+)?$/, { message: 'ATS_B_AUTHORIZE_URL must be an http(s) URL' })
  ATS_B_AUTHORIZE_URL = '';
  /** Where the ATS sends the browser back: connector-registry's public address + /oauth/ats-b/callback. */
  @RequiredInProduction()
  @Matches(/^https?:\/\/\S+$/, { message: 'ATS_B_REDIRECT_URI must be an http(s) URL' })
  ATS_B_REDIRECT_URI = 'http://127.0.0.1:3000/oauth/ats-b/callback';
  @Type(() => Number) @IsInt() @Min(60) @Max(3600) OAUTH_STATE_TTL_SECONDS = 600;

  /** Non-public ATS addresses (and plain http) allowed: `none` unless local mode or tests say otherwise. */
  @IsIn(ADDRESS_ALLOWANCES) ALLOW_PRIVATE_ADDRESSES: AddressAllowance = 'none';
  /** How long client credentials the ATS refused wait before they are tried again (never erased; was ATS_A_RECHECK_SECONDS). */
  @Type(() => Number) @IsInt() @Min(1) @Max(86_400) CREDENTIAL_RECHECK_SECONDS = 300;
  /** How long a connection test may take in all. */
  @Type(() => Number) @IsInt() @Min(1000) @Max(60000) CONNECTION_TEST_TIMEOUT_MS = 5_000;
  /** Connection tests at once in this process (their own slots, apart from renewals), and for one account. */
  @Type(() => Number) @IsInt() @Min(1) @Max(100) CONNECTION_TESTS_MAX = 8;
  @Type(() => Number) @IsInt() @Min(1) @Max(100) CONNECTION_TESTS_PER_ACCOUNT = 2;
  /** Connection tests one account may start a minute, across every gateway process. */
  @Type(() => Number) @IsInt() @Min(1) @Max(1000) CONNECTION_TESTS_PER_MINUTE = 10;
}
