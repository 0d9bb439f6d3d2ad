import type { RunMode, RunStatus, RunWait } from '@connector/contracts';
import type { RunCounts, RunEntity, RunWarning } from './run.entity';

/** A run as the admin API shows it. */
export interface RunView {
  id: string;
  connectorId: string;
  status: RunStatus;
  mode: RunMode;
  counts: RunCounts;
  apiCalls: number;
  errors: string[];
  warnings: RunWarning[];
  queuedAt: string;
  startedAt?: string;
  finishedAt?: string;
  /** While the run waits for ATS budget (the daily limit is spent, or the ATS answered 429). */
  waitingForBudgetUntil?: string;
  /** While the run waits for its ATS system: slow, busy with this account's other work, or failing. */
  waitingForAtsUntil?: string;
  /** In words, e.g. "waiting for ATS budget until 2026-11-22T00:00:00.000Z". */
  progress?: string;
  /** When it ended, when the connector's next scheduled run was due. */
  nextRunAt?: string;
}

export function toRunView(run: RunEntity): RunView {
  return {
    id: run.id,
    connectorId: run.connectorId,
    status: run.status,
    mode: run.mode,
    counts: run.counts,
    apiCalls: run.apiCalls,
    errors: run.errors,
    warnings: run.warnings ?? [],
    queuedAt: run.queuedAt.toISOString(),
    ...(run.startedAt ? { startedAt: run.startedAt.toISOString() } : {}),
    ...(run.finishedAt ? { finishedAt: run.finishedAt.toISOString() } : {}),
    ...(run.nextRunAt ? { nextRunAt: run.nextRunAt.toISOString() } : {}),
    ...(run.waitingUntil && run.status === 'running' ? waitingView(run.waitingUntil, run.waitingFor) : {}),
  };
}

function waitingView(until: Date, waitingFor: RunWait | null | undefined): Partial<RunView> {
  const at = until.toISOString();
  if (waitingFor === 'ats') {
    return {
      waitingForAtsUntil: at,
      progress: `waiting for this ATS (slow, busy with this account's other work, or failing) until ${at}`,
    };
  }
  return { waitingForBudgetUntil: at, progress: `waiting for ATS budget until ${at}` };
}
