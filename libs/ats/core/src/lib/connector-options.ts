import { IsInt, Max, Min } from 'class-validator';
import { OptionalNotNull } from './connector-kind';

/**
 * Options every connector has, whatever its ATS: each adapter's options class extends it. All optional: PATCH
 * merges them into the current ones; `null` is refused (it would be stored as the value).
 */
export class CommonConnectorOptionsDto {
  /** Minutes between two scheduled runs (default 15). */
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(1440)
  syncIntervalMinutes?: number;

  /** Hours between two full listings (default 24). */
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(720)
  fullSyncEveryHours?: number;
}
