import { sqlStatement } from '@connector/persistence';

/** Records that a connector was deleted; one recorded before keeps its time (its data's retention counts from it). */
export const RECORD_DELETED_CONNECTOR = sqlStatement<{ connectorId: string }>(
  (p) => `INSERT INTO deleted_connector (connector_id) VALUES (${p.connectorId}) ON CONFLICT DO NOTHING`,
);
