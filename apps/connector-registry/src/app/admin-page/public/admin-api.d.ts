// What the admin page reads from the admin API (/api/v1, docs/openapi.json) and shares between its screens:
// types only, for `// @ts-check` and JSDoc in the page's modules (never loaded by the browser).

export type AtsType = 'ats-a' | 'ats-b';
export type ConnectorStatus = 'connected' | 'pending_authorization' | 'auth_failed' | 'disabled';
export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export type RunMode = 'full' | 'incremental';

/** A failed call, as api.js throws it: the service's error body, or a network failure (status 0). */
export interface ApiFailure {
  status: number;
  code: string;
  message: string;
  details?: { errors?: string[] };
}

export interface Connector {
  id: string;
  accountId: string;
  type: AtsType;
  name: string;
  status: ConnectorStatus;
  options: { syncIntervalMinutes?: number; sendSmartCv?: boolean; [option: string]: unknown };
  config: { baseUrl?: string; clientId?: string; routine?: string; [field: string]: unknown };
  createdAt: string;
  updatedAt: string;
  lastRun?: Run;
}

export interface RunCounts {
  fetched: number;
  upserted: number;
  unchanged: number;
  closed: number;
}

export interface Run {
  id: string;
  connectorId: string;
  status: RunStatus;
  mode: RunMode;
  counts: RunCounts;
  apiCalls: number;
  errors: string[];
  warnings: Array<{ code: string; message: string }>;
  queuedAt: string;
  startedAt?: string;
  finishedAt?: string;
  waitingForBudgetUntil?: string;
  nextRunAt?: string;
}

export interface Failure {
  id: string;
  type: string | null;
  reasons: string[];
  retryable: boolean;
  failedAt: string;
  replayedAt: string | null;
}

export interface Budget {
  state: 'ok' | 'exhausted' | 'paused';
  message: string;
  limit: number;
  configuredLimit: number;
  atsLimit: number | null;
  used: { ours: number; everyone: number };
  remaining: number;
  resetAt: string;
  resumesAt: string | null;
  projectedUse: number;
  pushReserve: number;
  syncShare: number;
  waiting: { messages: number; runs: number };
}

/** One UTC day of a connector's work (GET /connectors/{id}/activity). */
export interface ActivityDay {
  /** `YYYY-MM-DD` */
  day: string;
  apiCalls: number;
  vacanciesPublished: number;
  recordsWritten: number;
  failures: number;
}

export interface Activity {
  connectorId: string;
  /** The last 14 days, oldest first. */
  days: ActivityDay[];
}

export type FieldSource = { from: string; default?: string } | { constant: string };

export interface JobMapping {
  fields: Record<string, FieldSource>;
  publish?: { statuses?: string[]; locations?: string[] };
}

export interface MappingVersion {
  version: number;
  createdAt: string;
  mapping: JobMapping;
}

export interface PreviewVacancy {
  externalId: string;
  title: string;
  location: string;
  status: string;
  requirements?: string;
  fields?: Record<string, unknown>;
}

/** A confirmation carried to the next screen (e.g. "Connected to ATS-A" after Save); shown once. */
export interface Flash {
  kind: string;
  text: string;
}

/** What every screen may use (ui.js `useApp()`). */
export interface AppContextValue {
  navigate(to: string, options?: { replace?: boolean }): void;
  announce(text: string): void;
  flash: Flash | null;
  setFlash(flash: Flash | null): void;
  signOut(message?: string): void;
}
