import { sqlStatement } from '@connector/persistence';

/** Live connectors counted per ATS type and status (columns `type`, `status`, `count`). */
export const LIVE_CONNECTOR_COUNTS = sqlStatement<Record<string, never>>(
  () => `
  SELECT type, status, count(*)::int AS count FROM connector
  WHERE deleted_at IS NULL
  GROUP BY type, status`,
);
