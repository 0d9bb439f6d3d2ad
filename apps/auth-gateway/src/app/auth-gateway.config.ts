import { Type } from 'class-transformer';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { ADDRESS_ALLOWANCES, type AddressAllowance } from '@connector/ats-http';
import { atsRegistry } from '@connector/ats-registry';
import { LOCAL_REQUEST_SEAL_KEYS, SealKeys } from '@connector/service-kit';
import { withAtsSettings } from './ats-settings';

export const SERVICE_NAME = 'auth-gateway';

/**
 * auth-gateway's environment, validated at boot: its own variables, and the settings each registered adapter
 * declares under its own prefix (ATS-B's OAuth client: `ATS_B_*`; `atsSettingsOf`). It reads the product's
 * adapter list, not the injected registry: the settings are decorated properties of this class, fixed when the
 * class is defined, before any module (or registry provider) exists.
 */
export class AuthGatewayConfig extends withAtsSettings(atsRegistry.all().flatMap((a) => a.settings ?? [])) {
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
