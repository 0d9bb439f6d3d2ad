const DEFAULT_SYNC_INTERVAL_MINUTES = 15;
const DEFAULT_FULL_SYNC_EVERY_HOURS = 24;

/** What a connector's `options` say about syncing, with the defaults filled in. */
export interface SyncOptions {
  syncIntervalMinutes: number;
  fullSyncEveryHours: number;
  /** The ATS's vacancy statuses that count as open (for a source that filters by status). */
  openStatuses: string[];
}

/**
 * Reads the sync options of a connector; a missing or unusable value falls back to its default, the open
 * statuses to its ATS's (`VacancySource.defaultOpenStatuses`).
 */
export function syncOptionsOf(
  options: Record<string, unknown>,
  defaultOpenStatuses: readonly string[] = [],
): SyncOptions {
  const statuses = Array.isArray(options['openStatuses'])
    ? options['openStatuses'].filter((s): s is string => typeof s === 'string' && s.trim() !== '')
    : [];
  return {
    syncIntervalMinutes: positive(options['syncIntervalMinutes'], DEFAULT_SYNC_INTERVAL_MINUTES),
    fullSyncEveryHours: positive(options['fullSyncEveryHours'], DEFAULT_FULL_SYNC_EVERY_HOURS),
    openStatuses: statuses.length > 0 ? statuses : [...defaultOpenStatuses],
  };
}

function positive(value: unknown, fallback: number): number {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : fallback;
}
