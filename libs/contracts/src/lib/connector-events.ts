import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Min,
  ValidateNested,
} from 'class-validator';

/** `data` of the messages connector services publish to `connector.events` (CONTRACT.md 1.2). */

export class VacancyContactDto {
  @IsOptional() @IsString() externalId?: string;
  @IsOptional() @IsString() name?: string;
  @IsOptional() @IsString() email?: string;
  @IsOptional() @IsString() phone?: string;
  @IsOptional() @IsString() jobTitle?: string;
}

export class VacancyCompanyDto {
  @IsString() name!: string;
  @IsOptional() @IsString() address?: string;
  @IsObject() links!: Record<string, string>;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => VacancyContactDto) contact?: VacancyContactDto;
}

export class VacancyUpsertedDto {
  @IsString() @IsNotEmpty() connectorId!: string;
  /** The connector's ATS: a name registered in `@connector/ats-registry` (vacancy-sync sends only those). */
  @IsString() @IsNotEmpty() atsType!: string;
  @IsString() @IsNotEmpty() externalId!: string;
  @IsString() title!: string;
  @IsString() location!: string;
  @IsString() description!: string;
  @IsString() requirements!: string;
  @IsString() status!: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => VacancyContactDto) contact?: VacancyContactDto;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => VacancyCompanyDto) company?: VacancyCompanyDto;
  @IsObject() fields!: Record<string, unknown>;
  @IsISO8601() updatedAt!: string;
  @IsString() @IsNotEmpty() contentHash!: string;
}

export class VacancyClosedDto {
  @IsString() @IsNotEmpty() connectorId!: string;
  @IsString() @IsNotEmpty() externalId!: string;
}

export const SYNC_ACTIONS = ['created', 'updated'] as const;
export type SyncAction = (typeof SYNC_ACTIONS)[number];

export class CandidateSyncedDto {
  @IsString() @IsNotEmpty() connectorId!: string;
  @IsString() @IsNotEmpty() candidateId!: string;
  @IsString() @IsNotEmpty() externalId!: string;
  @IsIn(SYNC_ACTIONS) action!: SyncAction;
}

export class ApplicationSyncedDto {
  @IsString() @IsNotEmpty() connectorId!: string;
  @IsString() @IsNotEmpty() applicationId!: string;
  @IsString() @IsNotEmpty() vacancyExternalId!: string;
  @IsString() @IsNotEmpty() externalId!: string;
  @IsIn(SYNC_ACTIONS) action!: SyncAction;
}

export const DOCUMENT_ACTIONS = ['uploaded', 'skipped'] as const;
export type DocumentAction = (typeof DOCUMENT_ACTIONS)[number];

export class DocumentSyncedDto {
  @IsString() @IsNotEmpty() connectorId!: string;
  @IsString() @IsNotEmpty() documentId!: string;
  @IsString() @IsNotEmpty() candidateId!: string;
  @IsOptional() @IsString() externalId?: string;
  @IsIn(DOCUMENT_ACTIONS) action!: DocumentAction;
  @IsOptional() @IsString() reason?: string;
}

export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export class RunCountsDto {
  @IsInt() @Min(0) fetched!: number;
  @IsInt() @Min(0) upserted!: number;
  @IsInt() @Min(0) unchanged!: number;
  @IsInt() @Min(0) closed!: number;
}

/**
 * A run that looks wrong says so: e.g. `UNKNOWN_STATUSES`, `EMPTY_LISTING`, `NOTHING_LIVE`. `message` is plain
 * words for an admin: what the run asked, what it got, what to check.
 */
export class RunWarningDto {
  @IsString() @IsNotEmpty() code!: string;
  @IsString() @IsNotEmpty() message!: string;
}

export class RunCompletedDto {
  @IsString() @IsNotEmpty() connectorId!: string;
  @IsString() @IsNotEmpty() runId!: string;
  @IsIn(RUN_STATUSES) status!: RunStatus;
  @IsObject() @ValidateNested() @Type(() => RunCountsDto) counts!: RunCountsDto;
  @IsInt() @Min(0) apiCalls!: number;
  /** Present when the run found something to warn about; a run with warnings may still have succeeded. */
  @IsOptional()
  @IsArray()
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => RunWarningDto)
  warnings?: RunWarningDto[];
  /** When the connector's next scheduled run is due (ISO 8601), as vacancy-sync's schedule stands at the end. */
  @IsOptional() @IsISO8601() nextRunAt?: string;
}

/** `operation.failed` codes for refusals a consumer may act on (most failures carry only a `reason`). */
export const OperationFailedCode = {
  /** The event is about a candidate the platform erased (`candidate.erased`): refused, not kept anywhere. */
  CandidateErased: 'CANDIDATE_ERASED',
} as const;

export class OperationFailedDto {
  @IsOptional() @IsString() connectorId?: string;
  @IsString() @IsNotEmpty() sourceEventId!: string;
  @IsString() @IsNotEmpty() sourceType!: string;
  @IsString() @IsNotEmpty() reason!: string;
  @IsBoolean() retryable!: boolean;
  @IsOptional() @IsArray() @IsString({ each: true }) errors?: string[];
  /** Set on refusals with a code of their own, e.g. `CANDIDATE_ERASED`. */
  @IsOptional() @IsString() code?: string;
}

export class OperationUnsupportedDto {
  @IsString() @IsNotEmpty() connectorId!: string;
  @IsString() @IsNotEmpty() sourceEventId!: string;
  @IsString() @IsNotEmpty() sourceType!: string;
  @IsString() @IsNotEmpty() reason!: string;
}

export const CONNECTOR_STATUSES = ['pending_authorization', 'connected', 'auth_failed', 'disabled'] as const;
export type ConnectorStatus = (typeof CONNECTOR_STATUSES)[number];

export class ConnectorStatusChangedDto {
  @IsString() @IsNotEmpty() connectorId!: string;
  @IsIn(CONNECTOR_STATUSES) status!: ConnectorStatus;
  @IsOptional() @IsString() reason?: string;
}

/** What an erasure removed, per kind of record (0 when a service held none of that kind). */
export class ErasedRecordsDto {
  /** candidate-sync: candidate ↔ ATS links, kept with their ids only (field hashes removed). */
  @IsInt() @Min(0) candidateLinks!: number;
  /** candidate-sync: application links, kept with their ids only (answer hashes removed). */
  @IsInt() @Min(0) applicationLinks!: number;
  /** document-service: files attached to the candidate (their fingerprints), removed. */
  @IsInt() @Min(0) documentLinks!: number;
  /** document-service: where the candidate lives in each ATS, removed. */
  @IsInt() @Min(0) candidateRefs!: number;
  /** connector-registry: failure-log entries (dead letters) about the candidate, removed. */
  @IsInt() @Min(0) deadLetters!: number;
}

/**
 * `candidate.erasure_completed`: every connector service has erased what it held of the candidate after
 * `candidate.erased` (sent once by connector-registry when all have reported; a redelivery has the same id).
 */
export class CandidateErasureCompletedDto {
  @IsString() @IsNotEmpty() candidateId!: string;
  @IsObject() @ValidateNested() @Type(() => ErasedRecordsDto) removed!: ErasedRecordsDto;
}
