import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsInt,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  Validate,
  ValidatorConstraint,
  type ValidationArguments,
  type ValidatorConstraintInterface,
  ValidateIf,
  MinLength,
} from 'class-validator';
import {
  LOCAL_REQUEST_SEAL_KEYS,
  RequiredInProduction,
  SealKeys,
  ServiceConfig,
} from '@connector/service-kit';
import { ApiKeysFormatError, parseApiKeys } from './auth/api-keys';
import { parseTrustProxy, TrustProxyFormatError } from './trust-proxy';

export const SERVICE_NAME = 'connector-registry';

@ValidatorConstraint({ name: 'apiKeys' })
class ApiKeysConstraint implements ValidatorConstraintInterface {
  private problem = '';
  validate(value: unknown, args: ValidationArguments): boolean {
    try {
      parseApiKeys(typeof value === 'string' ? value : '', {
        strict: strictApiKeys(args.object as ConnectorRegistryConfig),
      });
      return true;
    } catch (error) {
      this.problem = error instanceof ApiKeysFormatError ? error.message : 'is invalid';
      return false;
    }
  }
  defaultMessage(): string {
    // Never echoes the value: it holds secrets.
    return `ADMIN_API_KEYS must be "<accountId>:<key>[,<accountId>:<key>…]": ${this.problem}`;
  }
}

@ValidatorConstraint({ name: 'trustProxy' })
class TrustProxyConstraint implements ValidatorConstraintInterface {
  private problem = '';
  validate(value: unknown): boolean {
    try {
      parseTrustProxy(typeof value === 'string' ? value : '');
      return true;
    } catch (error) {
      this.problem = error instanceof TrustProxyFormatError ? error.message : 'is invalid';
      return false;
    }
  }
  defaultMessage(): string {
    return `TRUST_PROXY must be empty, a hop count or a comma list of proxy addresses/subnets: ${this.problem}`;
  }
}

/** Production wants strong admin keys unless a demo says otherwise (ADMIN_ALLOW_WEAK_KEYS). */
export function strictApiKeys(
  config: Pick<ConnectorRegistryConfig, 'NODE_ENV' | 'ADMIN_ALLOW_WEAK_KEYS'>,
): boolean {
  return config.NODE_ENV === 'production' && config.ADMIN_ALLOW_WEAK_KEYS !== true;
}

/** connector-registry's environment, validated at boot. */
export class ConnectorRegistryConfig extends ServiceConfig {
  override PORT = 3000;
  /** Handlers running at once; they take the buffered messages in turn by account. */
  @Type(() => Number) @IsInt() @Min(1) @Max(500) CONCURRENCY = 10;
  /** Messages delivered and not yet settled: the buffer the handlers take from. */
  @Type(() => Number) @IsInt() @Min(1) @Max(2000) PREFETCH = 40;
  /** Handlers of one account running at once: one account's slow ATS holds no more than these. */
  @Type(() => Number) @IsInt() @Min(1) @Max(500) PER_KEY_CONCURRENCY = 4;
  /** Messages of one account waiting for a handler; more wait in a retry queue (not an attempt). */
  @Type(() => Number) @IsInt() @Min(1) @Max(2000) PER_KEY_BUFFERED = 16;
  /** Requests of one type handled at once; more are answered BUSY with when to ask again. */
  @Type(() => Number) @IsInt() @Min(1) @Max(1000) REQUEST_CONCURRENCY = 64;
  /** Admin API keys, `<accountId>:<key>[,…]`; required (empty default so that loadConfig reads it). */
  @RequiredInProduction() @IsString() @Validate(ApiKeysConstraint) ADMIN_API_KEYS = '';
  /** Demos in production mode only (docker compose): accept the demo key and short keys. */
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value === 'true' : value))
  @IsBoolean()
  ADMIN_ALLOW_WEAK_KEYS = false;
  /** The HMAC key of admin ids (stored with mapping versions, logged); unset, a fixed local value outside production. */
  @RequiredInProduction()
  @ValidateIf((config: { NODE_ENV?: string }) => config.NODE_ENV === 'production')
  @MinLength(32, { message: 'ADMIN_ID_SECRET must be at least 32 random characters in production' })
  ADMIN_ID_SECRET = '';
  /** Where the browser lands after an ATS-B login: `${ADMIN_PAGE_PATH}/connectors/{id}?authorized=1`. */
  @Matches(/^\/[A-Za-z0-9/_-]*$/, { message: 'ADMIN_PAGE_PATH must be a path starting with /' })
  ADMIN_PAGE_PATH = '/admin';
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  PUBLIC_URL = 'http://127.0.0.1:3000';
  /**
   * Express `trust proxy` (empty: off, the socket's address is the client): a hop count, or a comma list of
   * `loopback`, `linklocal`, `uniquelocal`, addresses and subnets of the proxies in front. Then the client
   * address (the wrong-key lockout's key, the request log) comes from X-Forwarded-For.
   */
  @IsString() @Validate(TrustProxyConstraint) TRUST_PROXY = '';
  /**
   * The keys the client secrets of requests to auth-gateway are sealed with (only the two hold them):
   * "<keyId>:<base64 of 32 bytes>[,…]", the first seals, all open (auth-gateway's `REQUEST_SEAL_KEYS`).
   */
  @SealKeys() REQUEST_SEAL_KEYS = LOCAL_REQUEST_SEAL_KEYS;
  /** How long to wait for auth-gateway (it may call the ATS). */
  @Type(() => Number) @IsInt() @Min(100) @Max(120_000) AUTH_GATEWAY_TIMEOUT_MS = 12_000;
  /** Bodies of dead letters one account's failure log keeps in an hour; past it, who/what/why without the body. */
  @Type(() => Number) @IsInt() @Min(10) @Max(1_000_000) FAILURE_LOG_BODIES_PER_ACCOUNT_HOUR = 2_000;
  /** Bytes of dead-letter bodies one account's failure log keeps in an hour. */
  @Type(() => Number) @IsInt() @Min(1_048_576) @Max(10_737_418_240) FAILURE_LOG_BYTES_PER_ACCOUNT_HOUR =
    67_108_864;
  /** How long the failure log keeps a dead letter (and a finished erasure's record). */
  @Type(() => Number) @IsInt() @Min(1) @Max(3_650) DEAD_LETTER_RETENTION_DAYS = 30;
  /** How long a connector's run history goes back (its last run is kept whatever its age). */
  @Type(() => Number) @IsInt() @Min(1) @Max(3_650) RUN_HISTORY_DAYS = 30;
  /** The most runs of a connector its history keeps (the newest); the admin page lists the last 20. */
  @Type(() => Number) @IsInt() @Min(20) @Max(100_000) RUN_HISTORY_PER_CONNECTOR = 500;
  /** Live connectors one account may have; one more is refused with 422 CONNECTOR_LIMIT. */
  @Type(() => Number) @IsInt() @Min(1) @Max(100_000) MAX_CONNECTORS_PER_ACCOUNT = 50;
  /**
   * Runs of one account queued or running at once (scheduled ones too); one more asked for is refused with
   * 429 RUN_LIMIT. vacancy-sync's scheduler holds its own runs to the same number (its own setting).
   */
  @Type(() => Number) @IsInt() @Min(1) @Max(10_000) MAX_CONCURRENT_RUNS_PER_ACCOUNT = 4;
  /** How long to wait for vacancy-sync's mapping preview. */
  @Type(() => Number) @IsInt() @Min(100) @Max(120_000) VACANCY_SYNC_TIMEOUT_MS = 15_000;
}
