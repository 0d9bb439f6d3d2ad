import { sqlStatement } from '@connector/persistence';

/** The newest run of each of the connectors (whole rows: `entitiesOf` reads them). */
export const LATEST_RUNS = sqlStatement<{ connectorIds: string[] }>(
  (p) => `
  SELECT DISTINCT ON (connector_id) * FROM run
  WHERE connector_id = ANY(${p.connectorIds}::uuid[])
  ORDER BY connector_id, queued_at DESC, id DESC`,
);
