import type { RunStatus, RunWait } from '@connector/contracts';
import type { RunCounts, RunWarning } from './run.entity';

export interface RunState {
  status: RunStatus;
  counts: RunCounts;
  apiCalls: number;
  errors: string[];
  warnings: RunWarning[];
  startedAt: Date | null;
  finishedAt: Date | null;
  /** Set while the run waits for ATS budget: when it goes on by itself (progress, not failure). */
  waitingUntil?: Date | null;
  /** What it waits for (null: budget, as before this was recorded). */
  waitingFor?: RunWait | null;
  /** Set when it ended: when the connector's next scheduled run was due. */
  nextRunAt?: Date | null;
}

/** What can happen to a run after it was queued. */
export type RunEvent =
  | {
      kind: 'progress';
      counts: Omit<RunCounts, 'closed'> & { closed?: number };
      apiCalls: number;
      at: Date;
      waitingUntil?: Date;
      waitingFor?: RunWait;
    }
  | {
      kind: 'completed';
      status: RunStatus;
      counts: RunCounts;
      apiCalls: number;
      warnings?: RunWarning[];
      nextRunAt?: Date;
      at: Date;
    }
  | { kind: 'request_failed'; reason: string; at: Date };

export const EMPTY_COUNTS: RunCounts = { fetched: 0, upserted: 0, unchanged: 0, closed: 0 };

function isFinished(status: RunStatus): boolean {
  switch (status) {
    case 'queued':
    case 'running':
      return false;
    case 'succeeded':
    case 'failed':
      return true;
  }
}

/**
 * The run's next state, or undefined when the event must change nothing: anything after the run finished
 * (a late or redelivered progress never reopens a completed run), or a "completed" without a final status.
 * Progress may arrive out of order, so counts and API calls only grow.
 */
export function nextRunState(state: RunState, event: RunEvent): RunState | undefined {
  if (isFinished(state.status)) return undefined;
  switch (event.kind) {
    case 'progress':
      return {
        ...state,
        status: 'running',
        counts: {
          fetched: Math.max(state.counts.fetched, event.counts.fetched),
          upserted: Math.max(state.counts.upserted, event.counts.upserted),
          unchanged: Math.max(state.counts.unchanged, event.counts.unchanged),
          closed: Math.max(state.counts.closed, event.counts.closed ?? 0),
        },
        apiCalls: Math.max(state.apiCalls, event.apiCalls),
        startedAt: state.startedAt ?? event.at,
        waitingUntil: event.waitingUntil ?? null,
        waitingFor: event.waitingUntil ? (event.waitingFor ?? 'budget') : null,
      };
    case 'completed':
      if (!isFinished(event.status)) return undefined;
      return {
        ...state,
        status: event.status,
        counts: { ...event.counts },
        apiCalls: Math.max(state.apiCalls, event.apiCalls),
        warnings: event.warnings ? event.warnings.map((w) => ({ code: w.code, message: w.message })) : [],
        startedAt: state.startedAt ?? event.at,
        finishedAt: event.at,
        waitingUntil: null,
        waitingFor: null,
        nextRunAt: event.nextRunAt ?? null,
      };
    case 'request_failed':
      return {
        ...state,
        status: 'failed',
        errors: [...state.errors, event.reason],
        finishedAt: event.at,
        waitingUntil: null,
        waitingFor: null,
      };
  }
}
