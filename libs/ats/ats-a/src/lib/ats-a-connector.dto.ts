import { CommonConnectorOptionsDto, OptionalNotNull } from '@connector/ats-core';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

/** ATS-A credentials as typed by the admin. They go to auth-gateway; only baseUrl and clientId stay here. */
export class AtsAConfigInputDto {
  @IsString() @IsNotEmpty() @MaxLength(500) baseUrl!: string;
  @IsString() @IsNotEmpty() @MaxLength(200) clientId!: string;
  @IsString() @IsNotEmpty() @MaxLength(500) clientSecret!: string;
}

/** PATCH of ATS-A credentials: the secret is always needed, since the gateway tests the whole set again. */
export class AtsAConfigPatchDto {
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(500) baseUrl?: string;
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(200) clientId?: string;
  @IsString() @IsNotEmpty() @MaxLength(500) clientSecret!: string;
}

export class AtsAOptionsDto extends CommonConnectorOptionsDto {
  /**
   * Which vacancy statuses count as open, by name as ATS-A lists them (GET /api/options/dropdown/50; case
   * ignored); they differ per customer. Each must be offered by the ATS: the connection test and create
   * refuse others (UNKNOWN_STATUSES); a run warns. Default ['Open', 'Live'].
   */
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(100, { each: true })
  openStatuses?: string[];

  /** ATS-A's daily API call budget for this customer (default 10 000). */
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  dailyCallLimit?: number;

  /** When the ATS's day resets (UTC, default 00:00), used until the ATS names its reset in X-RateLimit-Reset. */
  @OptionalNotNull()
  @Matches(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'dailyResetUtc must be HH:MM (UTC)' })
  dailyResetUtc?: string;
}
