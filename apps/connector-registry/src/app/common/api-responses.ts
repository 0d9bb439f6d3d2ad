import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ATS_CAPABILITIES, SETUP_FIELD_KINDS, SETUP_FLOWS } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import {
  CONNECTOR_STATUSES,
  RUN_MODES,
  RUN_STATUSES,
  schemaNameOf,
  VacancyUpsertedDto,
} from '@connector/contracts';
import type { ActivityDayView, ActivityView } from '../activity/activity.view';
import type { ConnectorTypeView, SetupFieldView } from '../connectors/connector-type.view';
import type { ConnectorView } from '../connectors/connector.view';
import { EVENT_FEED_MODES, type EventFeedView } from '../connectors/event-feed.view';
import type { FailureView } from '../failures/failures.service';
import { JobMappingDto } from '../mapping/dto/mapping-requests.dto';
import type { MappingView } from '../mapping/mapping.service';
import type { RunCounts } from '../runs/run.entity';
import type { RunView } from '../runs/run.view';
import { RegistryErrorCode, type ErrorBody } from './registry.exception';

// The `type` enums read the product's list of ATSs: a decorator runs when its class is defined, before any
// registry is injected (the document is the product's; the services answer from their injected registry).

/**
 * The admin API's response bodies as OpenAPI schemas (docs/openapi.json). Each class is checked at compile
 * time to have exactly the fields of the view the code returns: a field added to a view without being
 * documented here fails `npm run typecheck`.
 */
type SameKeys<A, B> = [Exclude<keyof A, keyof B> | Exclude<keyof B, keyof A>] extends [never] ? true : false;

export class RunCountsResponse {
  @ApiProperty({ minimum: 0 }) fetched!: number;
  @ApiProperty({ minimum: 0 }) upserted!: number;
  @ApiProperty({ minimum: 0 }) unchanged!: number;
  @ApiProperty({ minimum: 0 }) closed!: number;
}

export class RunWarningResponse {
  @ApiProperty({
    example: 'UNKNOWN_STATUSES',
    description:
      'UNKNOWN_STATUSES, EMPTY_LISTING, NOTHING_LIVE, RUN_FAILED, RUN_PAGE_LIMIT, RUN_DEADLINE, ATS_ANSWER_TOO_LARGE, ATS_ANSWER_TOO_MANY_RECORDS…',
  })
  code!: string;
  @ApiProperty({ description: 'plain words for an admin: what the run asked, what it got, what to check' })
  message!: string;
}

export class RunResponse {
  @ApiProperty() id!: string;
  @ApiProperty() connectorId!: string;
  @ApiProperty({ enum: RUN_STATUSES }) status!: RunView['status'];
  @ApiProperty({ enum: RUN_MODES }) mode!: RunView['mode'];
  @ApiProperty({ type: RunCountsResponse }) counts!: RunCountsResponse;
  @ApiProperty({ minimum: 0, description: 'ATS API calls the run used' }) apiCalls!: number;
  @ApiProperty({ type: [String] }) errors!: string[];
  @ApiProperty({
    type: [RunWarningResponse],
    description: 'a run that looks wrong says so, even when it succeeded; empty when there is nothing to say',
  })
  warnings!: RunWarningResponse[];
  @ApiProperty({ format: 'date-time' }) queuedAt!: string;
  @ApiPropertyOptional({ format: 'date-time' }) startedAt?: string;
  @ApiPropertyOptional({ format: 'date-time' }) finishedAt?: string;
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'while the run waits for ATS budget (the daily limit is spent, or the ATS answered 429)',
  })
  waitingForBudgetUntil?: string;
  @ApiPropertyOptional({
    format: 'date-time',
    description:
      "while the run waits for its ATS system: slow, busy with this account's other work, or failing (its calls are refused for a while)",
  })
  waitingForAtsUntil?: string;
  @ApiPropertyOptional({ example: 'waiting for ATS budget until 2026-11-22T00:00:00.000Z' })
  progress?: string;
  @ApiPropertyOptional({
    format: 'date-time',
    description: "a finished run: when the connector's next scheduled run was due as it ended",
  })
  nextRunAt?: string;
}

export class RunListResponse {
  @ApiProperty({ type: [RunResponse] }) runs!: RunResponse[];
}

export class RunAcceptedResponse {
  @ApiProperty() runId!: string;
  @ApiProperty({ enum: ['queued'] }) status!: 'queued';
}

export class ConnectorResponse {
  @ApiProperty() id!: string;
  @ApiProperty() accountId!: string;
  @ApiProperty({ enum: atsRegistry.types() }) type!: ConnectorView['type'];
  @ApiProperty() name!: string;
  @ApiProperty({ enum: CONNECTOR_STATUSES }) status!: ConnectorView['status'];
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'e.g. syncIntervalMinutes' })
  options!: Record<string, unknown>;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      "the connector configuration without secrets: its type's set-up fields under `config` (GET /connector-types)",
  })
  config!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiPropertyOptional({ type: RunResponse }) lastRun?: RunResponse;
}

export class ConnectorListResponse {
  @ApiProperty({ type: [ConnectorResponse] }) connectors!: ConnectorResponse[];
}

export class EventFeedResponse {
  @ApiProperty() connectorId!: string;
  @ApiProperty({
    enum: EVENT_FEED_MODES,
    description:
      "events: changes come from the ATS's event subscription (runs go on as the safety net); polling: only " +
      'from the scheduled runs (the subscription is lost, expired or failing; see reason); off: the ATS has ' +
      'no event feed, or the connector is not active',
  })
  mode!: EventFeedView['mode'];
  @ApiPropertyOptional({ minimum: 1, description: 'how often the subscription is read (eventPollSeconds)' })
  pollSeconds?: number;
  @ApiPropertyOptional({ format: 'date-time', description: 'when a batch was last read (empty ones too)' })
  lastReadAt?: string;
  @ApiPropertyOptional({ format: 'date-time', description: "the ATS's time of the newest event read" })
  lastEventAt?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'since when the connector is in this mode' })
  since?: string;
  @ApiPropertyOptional({ description: 'why it polls, in plain words' }) reason?: string;
}

export class SetupChoiceResponse {
  @ApiProperty({ example: 'api-oauth' }) value!: string;
  @ApiProperty({ example: 'API (OAuth)' }) label!: string;
  @ApiPropertyOptional() help?: string;
}

export class SetupFieldResponse {
  @ApiProperty({ example: 'baseUrl', description: 'its name in the create request, under `in`' })
  name!: string;
  @ApiProperty({ enum: ['config', 'options'] }) in!: SetupFieldView['in'];
  @ApiProperty({ example: 'Base API URL' }) label!: string;
  @ApiProperty({
    enum: SETUP_FIELD_KINDS,
    description: 'secret: typed, never shown again; choice: one of `choices`; list: several texts',
  })
  kind!: SetupFieldView['kind'];
  @ApiProperty() required!: boolean;
  @ApiPropertyOptional({ description: 'one line under the field' }) help?: string;
  @ApiPropertyOptional() placeholder?: string;
  @ApiPropertyOptional({
    oneOf: [
      { type: 'string' },
      { type: 'number' },
      { type: 'boolean' },
      { type: 'array', items: { type: 'string' } },
    ],
  })
  default?: SetupFieldView['default'];
  @ApiPropertyOptional({ type: [SetupChoiceResponse] }) choices?: SetupChoiceResponse[];
  @ApiPropertyOptional({ example: '/api', description: 'a url must not end with it (the form says so)' })
  forbiddenSuffix?: string;
}

export class ConnectorTypeResponse {
  @ApiProperty({ enum: atsRegistry.types(), description: 'the connector `type` to create' }) type!: string;
  @ApiProperty({ example: atsRegistry.all()[0]?.label, description: 'its name for people' }) label!: string;
  @ApiProperty({ enum: ATS_CAPABILITIES, isArray: true }) capabilities!: string[];
  @ApiProperty({
    enum: SETUP_FLOWS,
    description:
      'client-credentials: the fields are tested (POST /connectors/test) and saved; interactive-login: saved, ' +
      'then authorized by logging in to the ATS (POST /connectors/{id}/authorize)',
  })
  flow!: ConnectorTypeView['flow'];
  @ApiProperty({ description: 'one line where the admin chooses the ATS' }) summary!: string;
  @ApiProperty({ description: "the set-up form's first paragraph" }) intro!: string;
  @ApiProperty({ type: [SetupFieldResponse], description: 'what the form asks, in order' })
  fields!: SetupFieldResponse[];
}

export class ConnectorTypeListResponse {
  @ApiProperty({ type: [ConnectorTypeResponse] }) types!: ConnectorTypeResponse[];
}

export class ConnectionTestErrorResponse {
  @ApiProperty({ example: 'AUTH_FAILED' }) code!: string;
  @ApiProperty() message!: string;
}

export class ConnectionTestResponse {
  @ApiProperty() ok!: boolean;
  @ApiPropertyOptional({ type: ConnectionTestErrorResponse, description: 'when ok is false' })
  error?: ConnectionTestErrorResponse;
}

export class AuthorizeResponse {
  @ApiProperty({ format: 'uri', description: 'the ATS login window to open' }) authorizeUrl!: string;
}

export class MappingResponse {
  @ApiProperty({ minimum: 0, description: '0: the default mapping of the ATS type, never saved' })
  version!: number;
  @ApiProperty({ type: JobMappingDto }) mapping!: JobMappingDto;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ description: 'the admin that saved it (a key id, never the key)' }) createdBy!: string;
}

export class MappingVersionsResponse {
  @ApiProperty({ type: [MappingResponse] }) versions!: MappingResponse[];
}

/** A previewed vacancy is the `data` of `vacancy.upserted`: its schema is the contract's (openApiDocument adds it). */
export const PREVIEW_VACANCY_SCHEMA = schemaNameOf(VacancyUpsertedDto);

export class MappingPreviewResponse {
  @ApiProperty({
    type: 'array',
    items: { $ref: `#/components/schemas/${PREVIEW_VACANCY_SCHEMA}` },
    description: 'the vacancies as the mapping would publish them (the data of vacancy.upserted)',
  })
  vacancies!: unknown;
}

export class FailureResponse {
  @ApiProperty() id!: string;
  @ApiProperty({ type: String, nullable: true }) connectorId!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'the message type, when it could be read' })
  type!: string | null;
  @ApiProperty() routingKey!: string;
  @ApiProperty({ type: String, nullable: true }) messageId!: string | null;
  @ApiProperty({ type: [String] }) reasons!: string[];
  @ApiProperty({ description: 'whether a replay may succeed' }) retryable!: boolean;
  @ApiProperty({ format: 'date-time' }) failedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) replayedAt!: string | null;
  @ApiProperty({ minimum: 0 }) replayCount!: number;
  @ApiPropertyOptional({ description: 'the message that failed (only when reading one failure)' })
  message?: unknown;
}

export class FailureListResponse {
  @ApiProperty({ type: [FailureResponse] }) failures!: FailureResponse[];
}

export class ReplayResponse {
  @ApiProperty({ enum: [true] }) replayed!: true;
}

export class ActivityDayResponse {
  @ApiProperty({ format: 'date', example: '2026-11-21', description: 'the UTC day' }) day!: string;
  @ApiProperty({ minimum: 0, description: 'ATS API calls of the vacancy runs that ended that day' })
  apiCalls!: number;
  @ApiProperty({ minimum: 0, description: 'vacancies those runs published: new or changed, and closed' })
  vacanciesPublished!: number;
  @ApiProperty({ minimum: 0, description: 'candidates, applications and documents written to the ATS' })
  recordsWritten!: number;
  @ApiProperty({ minimum: 0, description: 'failed messages (in the failure log) and failed runs' })
  failures!: number;
}

export class ActivityResponse {
  @ApiProperty() connectorId!: string;
  @ApiProperty({
    type: [ActivityDayResponse],
    description: 'the last 14 days, oldest first, ending today; days without work have zeros',
  })
  days!: ActivityDayResponse[];
}

export class ErrorResponse {
  @ApiProperty() statusCode!: number;
  @ApiProperty({ enum: RegistryErrorCode, enumName: 'ErrorCode' }) code!: RegistryErrorCode;
  @ApiProperty() message!: string;
  @ApiPropertyOptional({ description: 'e.g. the validation errors, or the runId of the run in progress' })
  details?: ErrorBody['details'];
}

const _run: SameKeys<RunView, RunResponse> = true;
const _counts: SameKeys<RunCounts, RunCountsResponse> = true;
const _connector: SameKeys<ConnectorView, ConnectorResponse> = true;
const _eventFeed: SameKeys<EventFeedView, EventFeedResponse> = true;
const _connectorType: SameKeys<ConnectorTypeView, ConnectorTypeResponse> = true;
const _setupField: SameKeys<SetupFieldView, SetupFieldResponse> = true;
const _mapping: SameKeys<MappingView, MappingResponse> = true;
const _failure: SameKeys<FailureView, FailureResponse> = true;
const _error: SameKeys<ErrorBody, ErrorResponse> = true;
const _activity: SameKeys<ActivityView, ActivityResponse> = true;
const _activityDay: SameKeys<ActivityDayView, ActivityDayResponse> = true;
