// Generated from docs/openapi.json by `npm run contracts` (tools/admin-api-types.ts). Do not edit: change
// the server's views or DTOs and re-run it. Types only, for `// @ts-check` and JSDoc in the admin page's modules.

export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'INVALID_MAPPING'
  | 'NOT_INTERACTIVE_LOGIN'
  | 'NO_DAILY_BUDGET'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'INVALID_STATUS_CHANGE'
  | 'CONNECTOR_NOT_CONNECTED'
  | 'RUN_IN_PROGRESS'
  | 'CONNECTOR_LIMIT'
  | 'RUN_LIMIT'
  | 'NOT_REPLAYABLE'
  | 'PAYLOAD_TOO_LARGE'
  | 'TOO_MANY_REQUESTS'
  | 'AUTH_FAILED'
  | 'INVALID_URL'
  | 'ATS_UNREACHABLE'
  | 'ATS_ERROR'
  | 'UNKNOWN_STATUSES'
  | 'DEPENDENCY_UNAVAILABLE'
  | 'INTERNAL';

export interface ErrorResponse {
  statusCode: number;
  code: ErrorCode;
  message: string;
  /** e.g. the validation errors, or the runId of the run in progress */
  details?: Record<string, unknown>;
}

export interface TestConnectionDto {
  type: 'ats-a' | 'ats-b';
  /** the type's config: its set-up fields under `config` (GET /connector-types) */
  config: Record<string, unknown>;
  /** the options the connector will have: the type's set-up fields under `options` (GET /connector-types). Where the type takes openStatuses, every name in them must be a vacancy status the ATS offers (else ok:false, code UNKNOWN_STATUSES); without openStatuses, one of the type's default open statuses must be */
  options?: Record<string, unknown>;
}

export interface ConnectionTestErrorResponse {
  code: string;
  message: string;
}

export interface ConnectionTestResponse {
  ok: boolean;
  /** when ok is false */
  error?: ConnectionTestErrorResponse;
}

export interface CreateConnectorDto {
  type: 'ats-a' | 'ats-b';
  name: string;
  /** the type's config, checked by its own class: its set-up fields under `config` (GET /connector-types) */
  config: Record<string, unknown>;
  /** options: the type's set-up fields under `options` (GET /connector-types). Where the type takes openStatuses, they must all be offered by the ATS (else 422 UNKNOWN_STATUSES); without them the defaults the ATS offers are kept */
  options?: Record<string, unknown>;
}

export interface RunCountsResponse {
  fetched: number;
  upserted: number;
  unchanged: number;
  closed: number;
}

export interface RunWarningResponse {
  /** UNKNOWN_STATUSES, EMPTY_LISTING, NOTHING_LIVE, RUN_FAILED, RUN_PAGE_LIMIT, RUN_DEADLINE, ATS_ANSWER_TOO_LARGE, ATS_ANSWER_TOO_MANY_RECORDS… */
  code: string;
  /** plain words for an admin: what the run asked, what it got, what to check */
  message: string;
}

export interface RunResponse {
  id: string;
  connectorId: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  mode: 'incremental' | 'full';
  counts: RunCountsResponse;
  /** ATS API calls the run used */
  apiCalls: number;
  errors: string[];
  /** a run that looks wrong says so, even when it succeeded; empty when there is nothing to say */
  warnings: RunWarningResponse[];
  queuedAt: string;
  startedAt?: string;
  finishedAt?: string;
  /** while the run waits for ATS budget (the daily limit is spent, or the ATS answered 429) */
  waitingForBudgetUntil?: string;
  /** while the run waits for its ATS system: slow, busy with this account's other work, or failing (its calls are refused for a while) */
  waitingForAtsUntil?: string;
  progress?: string;
  /** a finished run: when the connector's next scheduled run was due as it ended */
  nextRunAt?: string;
}

export interface ConnectorResponse {
  id: string;
  accountId: string;
  type: 'ats-a' | 'ats-b';
  name: string;
  status: 'pending_authorization' | 'connected' | 'auth_failed' | 'disabled';
  /** e.g. syncIntervalMinutes */
  options: {
    [key: string]: unknown;
  };
  /** the connector configuration without secrets: its type's set-up fields under `config` (GET /connector-types) */
  config: {
    [key: string]: unknown;
  };
  createdAt: string;
  updatedAt: string;
  lastRun?: RunResponse;
}

export interface ConnectorListResponse {
  connectors: ConnectorResponse[];
}

export interface EventFeedResponse {
  connectorId: string;
  /** events: changes come from the ATS's event subscription (runs go on as the safety net); polling: only from the scheduled runs (the subscription is lost, expired or failing; see reason); off: the ATS has no event feed, or the connector is not active */
  mode: 'events' | 'polling' | 'off';
  /** how often the subscription is read (eventPollSeconds) */
  pollSeconds?: number;
  /** when a batch was last read (empty ones too) */
  lastReadAt?: string;
  /** the ATS's time of the newest event read */
  lastEventAt?: string;
  /** since when the connector is in this mode */
  since?: string;
  /** why it polls, in plain words */
  reason?: string;
}

export interface UpdateConnectorDto {
  name?: string;
  /** merged into the current options: the type's set-up fields under `options` (GET /connector-types) */
  options?: Record<string, unknown>;
  /** the config's fields to change; a client-credentials type's secret is typed again and the credentials are tested again */
  config?: Record<string, unknown>;
  /** disable, or enable again */
  status?: 'disabled' | 'connected';
}

export interface SetupChoiceResponse {
  value: string;
  label: string;
  help?: string;
}

export interface SetupFieldResponse {
  /** its name in the create request, under `in` */
  name: string;
  in: 'config' | 'options';
  label: string;
  /** secret: typed, never shown again; choice: one of `choices`; list: several texts */
  kind: 'text' | 'secret' | 'url' | 'number' | 'list' | 'boolean' | 'choice';
  required: boolean;
  /** one line under the field */
  help?: string;
  placeholder?: string;
  default?: string | number | boolean | string[];
  choices?: SetupChoiceResponse[];
  /** a url must not end with it (the form says so) */
  forbiddenSuffix?: string;
}

export interface ConnectorTypeResponse {
  /** the connector `type` to create */
  type: 'ats-a' | 'ats-b';
  /** its name for people */
  label: string;
  capabilities: (
    | 'vacancies'
    | 'candidates'
    | 'applications'
    | 'documents'
    | 'daily-budget'
    | 'client-credentials'
    | 'interactive-login'
    | 'vacancy-events')[];
  /** client-credentials: the fields are tested (POST /connectors/test) and saved; interactive-login: saved, then authorized by logging in to the ATS (POST /connectors/{id}/authorize) */
  flow: 'client-credentials' | 'interactive-login';
  /** one line where the admin chooses the ATS */
  summary: string;
  /** the set-up form's first paragraph */
  intro: string;
  /** what the form asks, in order */
  fields: SetupFieldResponse[];
}

export interface ConnectorTypeListResponse {
  types: ConnectorTypeResponse[];
}

export interface JobMappingDto {
  /** target → source; title, location, description, requirements and status are required. A source is {from: "<dotted path in the ATS record>", default?: string} or {constant: string} */
  fields: {
    [key: string]: {
      from: string;
      default?: string;
    } | {
      constant: string;
    };
  };
  /** only vacancies whose mapped status / location is listed are published (no list: no filter) */
  publish?: {
    statuses?: string[];
    locations?: string[];
  };
}

export interface MappingResponse {
  /** 0: the default mapping of the ATS type, never saved */
  version: number;
  mapping: JobMappingDto;
  createdAt: string;
  /** the admin that saved it (a key id, never the key) */
  createdBy: string;
}

export interface MappingVersionsResponse {
  versions: MappingResponse[];
}

export interface RollbackMappingDto {
  version: number;
}

export interface PreviewMappingDto {
  /** default: the current mapping */
  mapping?: JobMappingDto;
  limit?: number;
}

export interface MappingPreviewResponse {
  /** the vacancies as the mapping would publish them (the data of vacancy.upserted) */
  vacancies: VacancyUpserted[];
}

export interface StartRunDto {
  mode?: 'incremental' | 'full';
}

export interface RunAcceptedResponse {
  runId: string;
  status: 'queued';
}

export interface RunListResponse {
  runs: RunResponse[];
}

export interface FailureResponse {
  id: string;
  connectorId: string | null;
  /** the message type, when it could be read */
  type: string | null;
  routingKey: string;
  messageId: string | null;
  reasons: string[];
  /** whether a replay may succeed */
  retryable: boolean;
  failedAt: string;
  replayedAt: string | null;
  replayCount: number;
  /** the message that failed (only when reading one failure) */
  message?: Record<string, unknown>;
}

export interface FailureListResponse {
  failures: FailureResponse[];
}

export interface ReplayResponse {
  replayed: true;
}

export interface AuthorizeResponse {
  /** the ATS login window to open */
  authorizeUrl: string;
}

export interface ActivityDayResponse {
  /** the UTC day */
  day: string;
  /** ATS API calls of the vacancy runs that ended that day */
  apiCalls: number;
  /** vacancies those runs published: new or changed, and closed */
  vacanciesPublished: number;
  /** candidates, applications and documents written to the ATS */
  recordsWritten: number;
  /** failed messages (in the failure log) and failed runs */
  failures: number;
}

export interface ActivityResponse {
  connectorId: string;
  /** the last 14 days, oldest first, ending today; days without work have zeros */
  days: ActivityDayResponse[];
}

export interface BudgetUsedView {
  /** calls this service made in the current window */
  ours: number;
  /** everyone's calls, as the ATS counts them (X-RateLimit-Remaining) */
  everyone: number;
}

export interface BudgetWaitingView {
  /** messages (candidates, applications, documents) waiting for budget */
  messages: number;
  /** runs (vacancy syncs) waiting for budget */
  runs: number;
  /** the latest named wait */
  until: string | null;
}

export interface BudgetView {
  connectorId: string;
  /** the customer system the quota belongs to */
  baseUrl: string;
  state: 'ok' | 'exhausted' | 'paused';
  /** the state in plain words */
  message: string;
  /** calls the plan spends to today: the lower of the two limits below */
  limit: number;
  /** the connector option dailyCallLimit */
  configuredLimit: number;
  /** X-RateLimit-Limit, when the ATS sent it */
  atsLimit: number | null;
  used: BudgetUsedView;
  remaining: number;
  /** when the ATS day resets */
  resetAt: string;
  /** after a 429 */
  pausedUntil: string | null;
  /** when calls go on */
  resumesAt: string | null;
  /** our calls per hour lately */
  currentRatePerHour: number;
  /** calls used by the reset if the current rate held */
  projectedUse: number;
  /** remaining ÷ hours to the reset */
  sustainableRatePerHour: number;
  /** calls held for pushes for the rest of the day */
  pushReserve: number;
  /** calls held for vacancy syncs for the rest of the day */
  syncShare: number;
  waiting: BudgetWaitingView;
  /** while the connector's run waits for this ATS itself (slow, busy with this account's other work, or failing), not for budget: until when */
  waitingForAtsUntil: string | null;
}

export interface VacancyUpserted {
  connectorId: string;
  atsType: 'ats-a' | 'ats-b';
  externalId: string;
  title: string;
  location: string;
  description: string;
  requirements: string;
  status: string;
  contact?: VacancyContact;
  company?: VacancyCompany;
  fields: Record<string, unknown>;
  updatedAt: string;
  contentHash: string;
}

export interface VacancyContact {
  externalId?: string;
  name?: string;
  email?: string;
  phone?: string;
  jobTitle?: string;
}

export interface VacancyCompany {
  name: string;
  address?: string;
  links: Record<string, unknown>;
  contact?: VacancyContact;
}
