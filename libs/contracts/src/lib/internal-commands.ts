import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { ErasedRecordsDto } from './connector-events';

/** `data` of commands on the internal exchange (`connector.internal`); not part of the public contract. */

export const RUN_MODES = ['incremental', 'full'] as const;
export type RunMode = (typeof RUN_MODES)[number];

/** connector-registry → vacancy-sync: start a data fetch for a connector ("Run"). */
export class RunRequestedDto {
  @IsString() @IsNotEmpty() connectorId!: string;
  @IsString() @IsNotEmpty() runId!: string;
  @IsOptional() @IsIn(RUN_MODES) mode?: RunMode;
}

/** What a waiting run waits for. */
export const RUN_WAITS = ['budget', 'ats'] as const;
export type RunWait = (typeof RUN_WAITS)[number];

/** vacancy-sync → connector-registry: progress of a run while it runs. */
export class RunProgressDto {
  @IsString() @IsNotEmpty() connectorId!: string;
  @IsString() @IsNotEmpty() runId!: string;
  @IsIn(['running']) status!: 'running';
  @IsInt() @Min(0) fetched!: number;
  @IsInt() @Min(0) upserted!: number;
  @IsInt() @Min(0) unchanged!: number;
  @IsInt() @Min(0) apiCalls!: number;
  /** Set when known: lets the registry record a run vacancy-sync started by itself (a scheduled sync). */
  @IsOptional() @IsIn(RUN_MODES) mode?: RunMode;
  /** Set while the run waits for ATS budget (daily limit spent, or a 429): when it goes on by itself. */
  @IsOptional() @IsISO8601() waitingUntil?: string;
  /** What it waits for: ATS budget (the default), or its ATS system (slow, busy with other work, or failing). */
  @IsOptional() @IsIn(RUN_WAITS) waitingFor?: RunWait;
}

/**
 * A worker → auth-gateway request (reply expected): what the worker needs to call the ATS for a connector.
 * `rejected` names the credential the ATS just refused (401), so that however many workers report the
 * same one, the gateway renews it once.
 */
export class CredentialsRequestedDto {
  @IsString() @IsNotEmpty() connectorId!: string;
  @IsOptional() @IsString() rejected?: string;
}

/** connector-registry → vacancy-sync request (reply expected): a mapping applied to a few live vacancies. */
export class VacancyPreviewRequestedDto {
  @IsString() @IsNotEmpty() connectorId!: string;
  @IsObject() mapping!: Record<string, unknown>;
  @IsInt() @Min(1) @Max(20) limit!: number;
}

/** connector-registry → vacancy-sync request (reply: `VacancyEventFeedStatus`): how a connector learns of changes. */
export class VacancyEventFeedRequestedDto {
  @IsString() @IsNotEmpty() connectorId!: string;
}

/**
 * Whether a connector hears of its ATS's changes from the ATS's event subscription (`events`) or only from its
 * scheduled runs (`polling`: the subscription is lost, expired or failing; `reason` says why in plain words),
 * or has no event feed at all (`off`: the ATS has none, or the connector is not active). Times are ISO 8601.
 */
export interface VacancyEventFeedStatus {
  connectorId: string;
  mode: 'events' | 'polling' | 'off';
  /** How often the subscription is read (the connector's `eventPollSeconds`). */
  pollSeconds?: number;
  /** When a batch was last read from the ATS (empty batches too). */
  lastReadAt?: string;
  /** The ATS's time of the newest event read. */
  lastEventAt?: string;
  /** Since when the connector is in this mode. */
  since?: string;
  reason?: string;
}

/**
 * connector-registry → every worker process (a broadcast): a connector's options, config, mapping or status
 * changed, or it was deleted. Workers drop what they cached of it; `version` is the snapshot version now.
 */
export class ConnectorChangedDto {
  @IsString() @IsNotEmpty() connectorId!: string;
  @IsInt() @Min(1) version!: number;
}

/** A worker → connector-registry request (reply: `ConnectorSnapshot`, or NOT_FOUND; deleted ones are not found). */
export class ConnectorLookupDto {
  @IsString() @IsNotEmpty() connectorId!: string;
}

/** A worker → connector-registry request (reply: `ConnectorSnapshot[]`, the account's non-deleted connectors). */
export class ConnectorsByAccountDto {
  @IsString() @IsNotEmpty() accountId!: string;
}

/** What workers know of a connector. Secrets are never in it (they live in auth-gateway). */
export interface ConnectorSnapshot {
  id: string;
  accountId: string;
  /** The ATS: a name registered in `@connector/ats-registry`, where a worker looks its adapter up. */
  type: string;
  name: string;
  status: 'pending_authorization' | 'connected' | 'auth_failed' | 'disabled';
  /** e.g. { sendSmartCv, openStatuses, syncIntervalMinutes, fullSyncEveryHours, dailyCallLimit } */
  options: Record<string, unknown>;
  /** Non-secret configuration, e.g. ATS-A `{ baseUrl, clientId }`, ATS-B `{ routine }`. */
  config: Record<string, unknown>;
  /** The current job mapping (see libs/job-mapping) and its version. */
  mapping: { version: number; mapping: Record<string, unknown> };
  /**
   * Grows with every change of the connector or its mapping: a worker holding a lower one is behind. The
   * registry always sets it; test stand-ins may leave it out (then the snapshot is trusted for its TTL).
   */
  version?: number;
  updatedAt: string;
}

/** The services that hold a candidate's personal data, each erasing its own on `candidate.erased`. */
export const ERASURE_PARTS = ['candidate-sync', 'document-service', 'connector-registry'] as const;
export type ErasurePart = (typeof ERASURE_PARTS)[number];

/**
 * A worker → connector-registry: it erased what it held of a candidate (`candidate.erased`). The registry
 * announces `candidate.erasure_completed` once every part has reported.
 */
export class ErasurePartCompletedDto {
  @IsString() @IsNotEmpty() candidateId!: string;
  @IsIn(ERASURE_PARTS) part!: ErasurePart;
  @IsObject() @ValidateNested() @Type(() => ErasedRecordsDto) removed!: ErasedRecordsDto;
}
