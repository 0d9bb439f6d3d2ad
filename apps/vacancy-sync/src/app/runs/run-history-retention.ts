import type { HistoryRetentionRule } from '@connector/persistence';

/**
 * Every connector's `sync_run` history beyond RUN_HISTORY_PER_CONNECTOR runs or RUN_HISTORY_DAYS days, but
 * its newest run and any queued, running or paused one (the scheduler's work; a connector's last successes
 * live on `sync_connector`, not here).
 */
export function runHistoryRetention(config: {
  RUN_HISTORY_DAYS: number;
  RUN_HISTORY_PER_CONNECTOR: number;
}): HistoryRetentionRule {
  return {
    name: `runs beyond ${config.RUN_HISTORY_PER_CONNECTOR} a connector or older than ${config.RUN_HISTORY_DAYS} days`,
    table: 'sync_run',
    owners: { table: 'sync_connector', key: 'connector_id' },
    ownerColumn: 'connector_id',
    timeColumn: 'created_at',
    where: `"status" NOT IN ('queued', 'running', 'paused')`,
    keepNewest: config.RUN_HISTORY_PER_CONNECTOR,
    keepDays: config.RUN_HISTORY_DAYS,
  };
}
