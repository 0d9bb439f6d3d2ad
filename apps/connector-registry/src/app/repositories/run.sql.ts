import { sqlStatement } from '@connector/persistence';

/** The newest run of each of the connectors (whole rows: `entitiesOf` reads them). */
export const LATEST_RUNS = sqlStatement<{ connectorIds: string[] }>(
  (p) => `
  SELECT DISTINCT ON (connector_id) * FROM run
  WHERE connector_id = ANY(${p.connectorIds}::uuid[])
  ORDER BY connector_id, queued_at DESC, id DESC`,
).withRow({
  id: 'string',
  connector_id: 'string',
  account_id: 'string',
  status: 'string',
  mode: 'string',
  counts: 'json',
  api_calls: 'number',
  errors: 'json',
  queued_at: 'date',
  started_at: 'date | null',
  finished_at: 'date | null',
  updated_at: 'date',
  waiting_until: 'date | null',
  warnings: 'json',
  next_run_at: 'date | null',
  waiting_for: 'string | null',
});

/**
 * Serialises run requests of one account until the transaction ends, so two at once cannot both count the
 * same free place under MAX_CONCURRENT_RUNS_PER_ACCOUNT.
 */
export const LOCK_ACCOUNT_RUNS = sqlStatement<{ accountId: string }>(
  (p) => `SELECT pg_advisory_xact_lock(7330, hashtext(${p.accountId})) AS locked`,
).withRow({ locked: 'string' }); // void: pg hands over ''

/** An account's runs queued or running (the partial uq_run_connector_active holds only those). */
export const ACTIVE_RUNS_OF_ACCOUNT = sqlStatement<{ accountId: string }>(
  (p) => `
  SELECT count(*)::int AS count FROM run
  WHERE account_id = ${p.accountId} AND status IN ('queued', 'running')`,
).withRow({ count: 'number' });
