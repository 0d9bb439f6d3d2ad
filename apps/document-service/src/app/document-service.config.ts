import { Type } from 'class-transformer';
import { IsIn, IsInt, Matches, Max, Min } from 'class-validator';
import { ADDRESS_ALLOWANCES, type AddressAllowance } from '@connector/ats-http';
import { ServiceConfig } from '@connector/service-kit';

export const SERVICE_NAME = 'document-service';

/** document-service's environment, validated at boot. */
export class DocumentServiceConfig extends ServiceConfig {
  override PORT = 3004;
  /** Handlers running at once; they take the buffered messages in turn by account. */
  @Type(() => Number) @IsInt() @Min(1) @Max(500) CONCURRENCY = 10;
  /** Messages delivered and not yet settled: the buffer the handlers take from. */
  @Type(() => Number) @IsInt() @Min(1) @Max(2000) PREFETCH = 40;
  /** Handlers of one account running at once: one account's slow ATS holds no more than these. */
  @Type(() => Number) @IsInt() @Min(1) @Max(500) PER_KEY_CONCURRENCY = 4;
  /** Messages of one account waiting for a handler; more wait in a retry queue (not an attempt). */
  @Type(() => Number) @IsInt() @Min(1) @Max(2000) PER_KEY_BUFFERED = 16;
  /** Delays between attempts of a failed message, comma list (empty: the transport's default ladder). */
  @Matches(/^(\d+(,\d+)*)?$/, { message: 'RETRY_DELAYS_MS must be a comma list of milliseconds' })
  RETRY_DELAYS_MS = '';
  /** Largest document downloaded (default 10 MiB, the ATSs' own limit). */
  @Type(() => Number) @IsInt() @Min(1) @Max(100 * 1024 * 1024) MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
  /** Non-public addresses (and plain http) its ATS calls and downloads may reach: `none` unless local mode or tests say. */
  @IsIn(ADDRESS_ALLOWANCES) ALLOW_PRIVATE_ADDRESSES: AddressAllowance = 'none';
  /** Whole download, body included. */
  @Type(() => Number) @IsInt() @Min(100) @Max(600_000) DOWNLOAD_TIMEOUT_MS = 60_000;
  /** Per ATS request. */
  @Type(() => Number) @IsInt() @Min(100) @Max(300_000) ATS_TIMEOUT_MS = 60_000;
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
  @Type(() => Number) @IsInt() @Min(100) @Max(300_000) LOCK_WAIT_MS = 30_000;
}

export function retryDelaysOf(value: string): number[] | undefined {
  return value ? value.split(',').map(Number) : undefined;
}
