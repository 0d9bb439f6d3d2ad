import { sqlStatement } from '@connector/persistence';

/** Live connectors counted per ATS type and status. */
export const LIVE_CONNECTOR_COUNTS = sqlStatement<Record<string, never>>(
  () => `
  SELECT type, status, count(*)::int AS count FROM connector
  WHERE deleted_at IS NULL
  GROUP BY type, status`,
).withRow({ type: 'string', status: 'string', count: 'number' });

/**
 * Serialises creations of one account's connectors until the transaction ends, so two at once cannot both
 * count the same free place under MAX_CONNECTORS_PER_ACCOUNT.
 */
export const LOCK_ACCOUNT_CONNECTORS = sqlStatement<{ accountId: string }>(
  (p) => `SELECT pg_advisory_xact_lock(7331, hashtext(${p.accountId})) AS locked`,
).withRow({ locked: 'string' }); // void: pg hands over ''

/** An account's live connectors (through ix_connector_account_created). */
export const LIVE_CONNECTORS_OF_ACCOUNT = sqlStatement<{ accountId: string }>(
  (p) =>
    `SELECT count(*)::int AS count FROM connector WHERE account_id = ${p.accountId} AND deleted_at IS NULL`,
).withRow({ count: 'number' });
