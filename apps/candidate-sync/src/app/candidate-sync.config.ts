import { Type } from 'class-transformer';
import { IsInt, Matches, Max, Min } from 'class-validator';
import { ServiceConfig } from '@connector/service-kit';

export const SERVICE_NAME = 'candidate-sync';

/** candidate-sync's environment, validated at boot. */
export class CandidateSyncConfig extends ServiceConfig {
  override PORT = 3003;
  /** Messages this process works on at once. */
  // Work on a candidate holds no connection (leases), so many messages can be in flight at once.
  @Type(() => Number) @IsInt() @Min(1) @Max(500) PREFETCH = 32;
  /** Delays between attempts of a failed message, comma list (empty: the transport's default ladder). */
  @Matches(/^(\d+(,\d+)*)?$/, { message: 'RETRY_DELAYS_MS must be a comma list of milliseconds' })
  RETRY_DELAYS_MS = '';
  /** Per ATS request. */
  @Type(() => Number) @IsInt() @Min(100) @Max(300_000) ATS_TIMEOUT_MS = 30_000;
  /** How long a message waits for the ATS budget before it is retried later. */
  @Type(() => Number) @IsInt() @Min(0) @Max(300_000) BUDGET_WAIT_MS = 10_000;
  /** How long a message waits for another worker busy with the same candidate before it is retried later. */
  @Type(() => Number) @IsInt() @Min(100) @Max(300_000) LOCK_WAIT_MS = 15_000;
}

export function retryDelaysOf(value: string): number[] | undefined {
  return value ? value.split(',').map(Number) : undefined;
}
