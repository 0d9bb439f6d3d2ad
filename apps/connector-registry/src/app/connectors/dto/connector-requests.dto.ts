import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { atsRegistry, IsAtsType } from '@connector/ats-registry';
import { IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../common/validation';

/** `config` depends on `type`; it is checked against that type's class (see ConnectorKind). */
export class TestConnectionDto {
  @ApiProperty({ enum: atsRegistry.types() }) @IsAtsType() type!: string;
  @ApiProperty({ description: 'ATS-A: {baseUrl, clientId, clientSecret}' }) @IsObject() config!: Record<
    string,
    unknown
  >;
  @ApiPropertyOptional({
    description:
      'the options the connector will have (AtsAOptionsDto / AtsBOptionsDto). ATS-A: every name in ' +
      'openStatuses must be a vacancy status the ATS offers (else ok:false, code UNKNOWN_STATUSES); without ' +
      'openStatuses, one of the defaults (Open, Live) must be',
  })
  @IsOptional()
  @IsObject()
  options?: Record<string, unknown>;
}

export class CreateConnectorDto {
  @ApiProperty({ enum: atsRegistry.types() }) @IsAtsType() type!: string;
  @ApiProperty({ maxLength: 200 }) @IsString() @IsNotEmpty() @MaxLength(200) name!: string;
  @ApiProperty({
    description: 'ATS-A: {baseUrl, clientId, clientSecret}; ATS-B: {routine: "api-oauth", sendSmartCv}',
  })
  @IsObject()
  config!: Record<string, unknown>;
  @ApiPropertyOptional({
    description:
      'options (AtsAOptionsDto / AtsBOptionsDto); ATS-A: openStatuses must all be offered by the ATS ' +
      '(else 422 UNKNOWN_STATUSES); without them the defaults the ATS offers are kept',
  })
  @IsOptional()
  @IsObject()
  options?: Record<string, unknown>;
}

export const ADMIN_STATUSES = ['disabled', 'connected'] as const;

export class UpdateConnectorDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;
  @ApiPropertyOptional({
    description: 'merged into the current options; see AtsAOptionsDto / AtsBOptionsDto',
  })
  @IsOptional()
  @IsObject()
  options?: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'ATS-A: {baseUrl?, clientId?, clientSecret} (tested again)' })
  @IsOptional()
  @IsObject()
  config?: Record<string, unknown>;
  @ApiPropertyOptional({ enum: ADMIN_STATUSES, description: 'disable, or enable again' })
  @IsOptional()
  @IsIn(ADMIN_STATUSES)
  status?: (typeof ADMIN_STATUSES)[number];
}
