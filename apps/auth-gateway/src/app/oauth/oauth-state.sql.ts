import { sqlStatement } from '@connector/persistence';

/**
 * Uses a state up, if it is known, unused, unexpired and issued for `atsType`: one UPDATE, so two callbacks with
 * the same state cannot both have it, and another ATS's callback leaves it unused. Answers the whole row
 * (`entitiesOf` reads it), or none.
 */
export const CONSUME_STATE = sqlStatement<{ stateHash: string; atsType: string }>(
  (p) => `
  UPDATE oauth_state SET used_at = now()
  WHERE state_hash = ${p.stateHash} AND ats_type = ${p.atsType} AND used_at IS NULL AND expires_at > now()
  RETURNING *`,
).withRow({
  state_hash: 'string',
  connector_id: 'string',
  account_id: 'string',
  admin_id: 'string',
  nonce_hash: 'string',
  expires_at: 'date',
  used_at: 'date | null',
  code_verifier: 'json | null',
  ats_type: 'string',
});

/** Deletes the expired states, used or not; answers how many (`purged`). */
export const PURGE_EXPIRED_STATES = sqlStatement<Record<string, never>>(
  () => `
  WITH purged AS (DELETE FROM oauth_state WHERE expires_at <= now() RETURNING 1)
  SELECT count(*)::int AS purged FROM purged`,
).withRow({ purged: 'number' });
