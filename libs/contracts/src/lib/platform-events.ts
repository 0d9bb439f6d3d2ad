import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsISO31661Alpha2,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

/** `data` of the messages platform microservices publish to `platform.events` (CONTRACT.md 1.1). */

const YEAR_MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export class AddressDto {
  @IsString() @IsNotEmpty() @MaxLength(200) line1!: string;
  @IsOptional() @IsString() @MaxLength(200) line2?: string;
  @IsOptional() @IsString() @MaxLength(100) city?: string;
  @IsOptional() @IsString() @MaxLength(100) region?: string;
  @IsOptional() @IsString() @MaxLength(20) postalCode?: string;
  @IsOptional() @IsISO31661Alpha2() countryCode?: string;
}

export class WorkHistoryDto {
  @IsString() @IsNotEmpty() @MaxLength(200) employer!: string;
  @IsString() @IsNotEmpty() @MaxLength(200) title!: string;
  @Matches(YEAR_MONTH, { message: 'startDate must be YYYY-MM' }) startDate!: string;
  @IsOptional() @Matches(YEAR_MONTH, { message: 'endDate must be YYYY-MM' }) endDate?: string;
  @IsOptional() @IsBoolean() current?: boolean;
  @IsOptional() @IsString() @MaxLength(5000) description?: string;
}

export class EducationDto {
  @IsString() @IsNotEmpty() @MaxLength(200) institution!: string;
  @IsOptional() @IsString() @MaxLength(200) degree?: string;
  @IsOptional() @IsString() @MaxLength(200) fieldOfStudy?: string;
  @IsOptional() @Matches(YEAR_MONTH, { message: 'startDate must be YYYY-MM' }) startDate?: string;
  @IsOptional() @Matches(YEAR_MONTH, { message: 'endDate must be YYYY-MM' }) endDate?: string;
}

/** `candidate.created` and `candidate.updated`: the candidate's whole current profile. */
export class CandidateDataDto {
  @IsString() @IsNotEmpty() @MaxLength(100) candidateId!: string;
  @IsString() @IsNotEmpty() @MaxLength(100) firstName!: string;
  @IsString() @IsNotEmpty() @MaxLength(100) lastName!: string;
  @IsEmail() @MaxLength(254) email!: string;
  @IsOptional() @IsString() @MaxLength(40) phone?: string;
  @IsOptional() @IsString() @MaxLength(40) mobile?: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => AddressDto) address?: AddressDto;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => WorkHistoryDto)
  workHistory?: WorkHistoryDto[];
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => EducationDto)
  education?: EducationDto[];
  @IsOptional() @IsString() @MaxLength(200) source?: string;
}

/** A vacancy as a connector published it in `vacancy.upserted`. */
export class VacancyRefDto {
  @IsString() @IsNotEmpty() @MaxLength(100) connectorId!: string;
  @IsString() @IsNotEmpty() @MaxLength(100) externalId!: string;
}

export class ApplicationAnswerDto {
  @IsOptional() @IsString() @MaxLength(100) questionId?: string;
  @IsString() @IsNotEmpty() @MaxLength(2000) question!: string;
  @IsString() @MaxLength(20000) answer!: string;
}

/** `application.submitted` and `application.updated`. */
export class ApplicationDataDto {
  @IsString() @IsNotEmpty() @MaxLength(100) applicationId!: string;
  @IsString() @IsNotEmpty() @MaxLength(100) candidateId!: string;
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => VacancyRefDto)
  vacancies!: VacancyRefDto[];
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ApplicationAnswerDto)
  answers?: ApplicationAnswerDto[];
}

export const DOCUMENT_KINDS = ['cv', 'smart-cv', 'other'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** `document.uploaded`: the connector downloads the file from `url` and checks `sha256`. */
export class DocumentDataDto {
  @IsString() @IsNotEmpty() @MaxLength(100) documentId!: string;
  @IsString() @IsNotEmpty() @MaxLength(100) candidateId!: string;
  @IsIn(DOCUMENT_KINDS) kind!: DocumentKind;
  @IsString() @IsNotEmpty() @MaxLength(255) fileName!: string;
  @IsString() @IsNotEmpty() @MaxLength(255) contentType!: string;
  @IsInt() @Min(0) sizeBytes!: number;
  @Matches(/^[0-9a-f]{64}$/i, { message: 'sha256 must be 64 hex characters' }) sha256!: string;
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true }) url!: string;
}

/**
 * `candidate.erased`: the platform erased this person (e.g. a GDPR request). The connector services remove
 * the personal data they hold of them and refuse their later events; the customer's ATS is not touched.
 */
export class CandidateErasedDto {
  @IsString() @IsNotEmpty() @MaxLength(100) candidateId!: string;
}
