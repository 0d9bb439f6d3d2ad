import { CommonConnectorOptionsDto, OptionalNotNull } from '@connector/ats-core';
import { Equals, IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';

export class AtsBConfigInputDto {
  @Equals('api-oauth') routine!: 'api-oauth';
  @IsBoolean() sendSmartCv!: boolean;
}

export class AtsBConfigPatchDto {
  @IsOptional() @Equals('api-oauth') routine?: 'api-oauth';
}

export class AtsBOptionsDto extends CommonConnectorOptionsDto {
  /** Upload the platform's Smart CV documents too (default false). */
  @OptionalNotNull()
  @IsBoolean()
  sendSmartCv?: boolean;

  /** Seconds between two reads of the ATS's event subscription (changed job orders; default 60). */
  @OptionalNotNull()
  @IsInt()
  @Min(5)
  @Max(3600)
  eventPollSeconds?: number;
}
