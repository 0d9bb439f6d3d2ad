import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { OptionalNotNull } from '../../common/validation';

/**
 * Options every connector has. All optional: PATCH merges them into the current ones; `null` is refused (it
 * would be stored as the value).
 */
class CommonOptionsDto {
  @ApiPropertyOptional({ default: 15, minimum: 1, maximum: 1440 })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(1440)
  syncIntervalMinutes?: number;

  @ApiPropertyOptional({ default: 24, minimum: 1, maximum: 720 })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(720)
  fullSyncEveryHours?: number;
}

export class AtsAOptionsDto extends CommonOptionsDto {
  /** Which vacancy statuses count as open, by name; they differ per customer. */
  @ApiPropertyOptional({
    type: [String],
    default: ['Open', 'Live'],
    description:
      'vacancy status names as ATS-A lists them (GET /api/options/dropdown/50; case ignored). Each must be ' +
      'offered by the ATS: the connection test and create refuse others (UNKNOWN_STATUSES); a run warns',
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(100, { each: true })
  openStatuses?: string[];

  /** ATS-A's daily API call budget for this customer. */
  @ApiPropertyOptional({ default: 10_000, minimum: 1 })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  dailyCallLimit?: number;

  /** When the ATS's day resets (UTC), used until the ATS names its reset in X-RateLimit-Reset. */
  @ApiPropertyOptional({ default: '00:00', example: '00:00', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' })
  @OptionalNotNull()
  @Matches(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'dailyResetUtc must be HH:MM (UTC)' })
  dailyResetUtc?: string;
}

export class AtsBOptionsDto extends CommonOptionsDto {
  /** Upload the platform's Smart CV documents too. */
  @ApiPropertyOptional({ default: false })
  @OptionalNotNull()
  @IsBoolean()
  sendSmartCv?: boolean;

  /** How often the ATS's event subscription is read (the connector hears of changes between its runs). */
  @ApiPropertyOptional({
    default: 60,
    minimum: 5,
    maximum: 3600,
    description: 'seconds between two reads of the ATS-B event subscription (changed job orders)',
  })
  @OptionalNotNull()
  @IsInt()
  @Min(5)
  @Max(3600)
  eventPollSeconds?: number;
}
