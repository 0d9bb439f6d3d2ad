import { Type } from 'class-transformer';
import { IsIn, IsInt, Matches, Max, Min, MinLength, ValidateIf } from 'class-validator';
import { ADDRESS_ALLOWANCES, type AddressAllowance } from '@connector/ats-http';
import { RequiredInProduction, ServiceConfig } from '@connector/service-kit';

export const SERVICE_NAME = 'candidate-sync';

/** candidate-sync's environment, validated at boot. */
export class CandidateSyncConfig extends ServiceConfig {
  override PORT = 3003;
  /** Handlers running at once; they take the buffered messages in turn by account. */
  // Work on a candidate holds no connection (leases), so many messages can be in flight at once.
  @Type(() => Number) @IsInt() @Min(1) @Max(500) CONCURRENCY = 32;
  /** Messages delivered and not yet settled: the buffer the handlers take from. */
  @Type(() => Number) @IsInt() @Min(1) @Max(2000) PREFETCH = 128;
  /** Handlers of one account running at once: one account's slow ATS holds no more than these. */
  @Type(() => Number) @IsInt() @Min(1) @Max(500) PER_KEY_CONCURRENCY = 8;
  /** Messages of one account waiting for a handler; more wait in a retry queue (not an attempt). */
  @Type(() => Number) @IsInt() @Min(1) @Max(2000) PER_KEY_BUFFERED = 32;
  /**
   * Postgres connections of this process. A handler holds one only for a statement, never across an ATS call,
   * but 32 handlers, their lease renewals and the outbox queued on 10 and timed out at 5 s (issue 33).
   */
  @Type(() => Number) @IsInt() @Min(2) @Max(200) DB_POOL_SIZE = 20;
  /** Delays between attempts of a failed message, comma list (empty: the transport's default ladder). */
  @Matches(/^(\d+(,\d+)*)?$/, { message: 'RETRY_DELAYS_MS must be a comma list of milliseconds' })
  RETRY_DELAYS_MS = '';
  /** Per ATS request. */
  @Type(() => Number) @IsInt() @Min(100) @Max(300_000) ATS_TIMEOUT_MS = 30_000;
  /**
   * How long a message waits in its handler for the ATS budget before it is deferred to the quota's own time:
   * short, as a handler held waiting for one customer's budget is a handler the others do not get.
   */
  @Type(() => Number) @IsInt() @Min(0) @Max(2_000) BUDGET_WAIT_MS = 1_000;
  /** Work of one path (e.g. candidate writes) on one customer's ATS system at once in this process. */
  @Type(() => Number) @IsInt() @Min(1) @Max(100) ATS_SYSTEM_CONCURRENCY = 4;
  /** How long a message waits for one of its ATS system's slots before it is deferred, freeing its handler. */
  @Type(() => Number) @IsInt() @Min(0) @Max(2_000) ATS_SYSTEM_WAIT_MS = 250;
  /** How long a message waits for another worker busy with the same candidate before it is retried later. */
  @Type(() => Number) @IsInt() @Min(100) @Max(300_000) LOCK_WAIT_MS = 15_000;
  /** Non-public addresses (and plain http) its ATS calls may reach: `none` unless local mode or tests say. */
  @IsIn(ADDRESS_ALLOWANCES) ALLOW_PRIVATE_ADDRESSES: AddressAllowance = 'none';
  /**
   * The HMAC key of the hashes kept for change detection (fields sent, answers, content); unset, a fixed
   * local value outside production (`npm start` generates one).
   */
  @RequiredInProduction()
  @ValidateIf((config: { NODE_ENV?: string }) => config.NODE_ENV === 'production')
  @MinLength(32, { message: 'FIELD_HASH_KEY must be at least 32 random characters in production' })
  FIELD_HASH_KEY = '';
}

/** Outside production without FIELD_HASH_KEY: stable across processes, so workers agree on hashes. */
export const LOCAL_FIELD_HASH_KEY = 'local-field-hash-key-not-for-production';

export function retryDelaysOf(value: string): number[] | undefined {
  return value ? value.split(',').map(Number) : undefined;
}
