import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Equals, IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** ATS-A credentials as typed by the admin. They go to auth-gateway; only baseUrl and clientId stay here. */
export class AtsAConfigInputDto {
  @ApiProperty({ example: 'https://acme.ats-a.example' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  baseUrl!: string;

  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(200) clientId!: string;

  @ApiProperty({ writeOnly: true }) @IsString() @IsNotEmpty() @MaxLength(500) clientSecret!: string;
}

/** PATCH of ATS-A credentials: the secret is always needed, since the gateway tests the whole set again. */
export class AtsAConfigPatchDto {
  @ApiPropertyOptional() @IsOptional() @IsString() @IsNotEmpty() @MaxLength(500) baseUrl?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @IsNotEmpty() @MaxLength(200) clientId?: string;
  @ApiProperty({ writeOnly: true }) @IsString() @IsNotEmpty() @MaxLength(500) clientSecret!: string;
}

export class AtsBConfigInputDto {
  @ApiProperty({ enum: ['api-oauth'] }) @Equals('api-oauth') routine!: 'api-oauth';
  @ApiProperty() @IsBoolean() sendSmartCv!: boolean;
}

export class AtsBConfigPatchDto {
  @ApiPropertyOptional({ enum: ['api-oauth'] }) @IsOptional() @Equals('api-oauth') routine?: 'api-oauth';
}
