import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { atsRegistry, IsAtsType } from '@connector/ats-registry';
import { IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../common/validation';

// The OpenAPI enums read the product's list: a decorator runs when its class is defined, before any registry
// is injected. `@IsAtsType()` checks the injected one (the validation pipe's).
const CONFIG_FIELDS = 'its set-up fields under `config` (GET /connector-types)';
const OPTIONS_FIELDS = "the type's set-up fields under `options` (GET /connector-types)";

/** `config` depends on `type`; it is checked against that type's class (see ConnectorKind). */
export class TestConnectionDto {
  @ApiProperty({ enum: atsRegistry.types() }) @IsAtsType() type!: string;
  @ApiProperty({ description: `the type's config: ${CONFIG_FIELDS}` }) @IsObject() config!: Record<
    string,
    unknown
  >;
  @ApiPropertyOptional({
    description:
      `the options the connector will have: ${OPTIONS_FIELDS}. Where the type takes openStatuses, every name ` +
      'in them must be a vacancy status the ATS offers (else ok:false, code UNKNOWN_STATUSES); without ' +
      "openStatuses, one of the type's default open statuses must be",
  })
  @IsOptional()
  @IsObject()
  options?: Record<string, unknown>;
}

export class CreateConnectorDto {
  @ApiProperty({ enum: atsRegistry.types() }) @IsAtsType() type!: string;
  @ApiProperty({ maxLength: 200 }) @IsString() @IsNotEmpty() @MaxLength(200) name!: string;
  @ApiProperty({ description: `the type's config, checked by its own class: ${CONFIG_FIELDS}` })
  @IsObject()
  config!: Record<string, unknown>;
  @ApiPropertyOptional({
    description:
      `options: ${OPTIONS_FIELDS}. Where the type takes openStatuses, they must all be offered by the ATS ` +
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
    description: `merged into the current options: ${OPTIONS_FIELDS}`,
  })
  @IsOptional()
  @IsObject()
  options?: Record<string, unknown>;
  @ApiPropertyOptional({
    description:
      "the config's fields to change; a client-credentials type's secret is typed again and the credentials " +
      'are tested again',
  })
  @IsOptional()
  @IsObject()
  config?: Record<string, unknown>;
  @ApiPropertyOptional({ enum: ADMIN_STATUSES, description: 'disable, or enable again' })
  @IsOptional()
  @IsIn(ADMIN_STATUSES)
  status?: (typeof ADMIN_STATUSES)[number];
}
