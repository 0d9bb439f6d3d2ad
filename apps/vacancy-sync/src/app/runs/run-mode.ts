import type { RunMode } from '@connector/contracts';
import { fullListingDue } from './run-schedule';

/** Incremental runs look back this much further than the last successful start (clock skew, slow commits). */
export const INCREMENTAL_OVERLAP_MS = 5 * 60_000;

export interface ModeInputs {
  connectorId: string;
  requested?: RunMode;
  /** Start of the last successful run (any mode). */
  lastSuccessStartedAt?: Date;
  /** Start of the last successful full run. */
  lastFullStartedAt?: Date;
  fullSyncEveryHours: number;
  now: Date;
}

export type ModeDecision = { mode: 'full' } | { mode: 'incremental'; since: Date };

/**
 * Full when asked, when nothing succeeded before, or once per full-sync period at the connector's own place in
 * it (only a full listing notices deleted vacancies and ones whose advertising began without a change to their
 * record); otherwise incremental from the last successful start minus an overlap.
 */
export function decideRunMode(input: ModeInputs): ModeDecision {
  const { requested, lastSuccessStartedAt, lastFullStartedAt, now } = input;
  if (requested === 'full' || !lastSuccessStartedAt || !lastFullStartedAt) return { mode: 'full' };
  const fullDue = fullListingDue({
    connectorId: input.connectorId,
    lastFullStartedAt,
    everyHours: input.fullSyncEveryHours,
    now,
  });
  if (fullDue && requested !== 'incremental') return { mode: 'full' };
  return { mode: 'incremental', since: new Date(lastSuccessStartedAt.getTime() - INCREMENTAL_OVERLAP_MS) };
}
