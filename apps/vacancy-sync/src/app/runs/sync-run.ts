import type { RunCountsDto, RunMode, RunWarningDto } from '@connector/contracts';

export type SyncRunStatus = 'queued' | 'running' | 'paused' | 'succeeded' | 'failed';
export type RunTrigger = 'requested' | 'scheduled';
/** listing: pages being read; closing: the complete full listing is done, closures being published. */
export type RunPhase = 'listing' | 'closing';

/** A run as `sync_run` keeps it: where it is (cursor) and what it did so far. */
export interface SyncRun {
  runId: string;
  connectorId: string;
  accountId: string;
  trigger: RunTrigger;
  requestedMode?: RunMode;
  mode?: RunMode;
  since?: Date;
  status: SyncRunStatus;
  phase: RunPhase;
  /** The source's position after the last page handled (0: nothing yet). */
  after: number;
  counts: RunCountsDto;
  /** Records the ATS returned, live or not. */
  read: number;
  warnings: RunWarningDto[];
  apiCalls: number;
  attempts: number;
  resumeAt?: Date;
  correlationId?: string;
  createdAt: Date;
  startedAt?: Date;
}

/** What vacancy-sync knows of a connector it syncs: schedule and last successes. */
export interface SyncConnector {
  connectorId: string;
  accountId: string;
  lastSuccessStartedAt?: Date;
  lastFullStartedAt?: Date;
}
