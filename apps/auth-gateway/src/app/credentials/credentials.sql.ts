import { type RowShape, sqlStatement } from '@connector/persistence';

/** A credential's whole row (`SELECT *`, `RETURNING *`), as the repository reads it into its entity. */
const CREDENTIAL_ROW = {
  connector_id: 'string',
  account_id: 'string',
  ats_type: 'string',
  state: 'string',
  base_url: 'string | null',
  client_id: 'string | null',
  secret: 'json | null',
  access: 'json | null',
  access_expires_at: 'date | null',
  access_fingerprint: 'string | null',
  created_at: 'date',
  updated_at: 'date',
  refresh_marker: 'string | null',
  refresh_started_at: 'date | null',
  recheck_at: 'date | null',
  generation: 'string | null',
  lease_owner: 'string | null',
  lease_until: 'date | null',
  renew_at: 'date | null',
  in_use: 'boolean',
} as const satisfies RowShape;

/** One connector's credential row (every request reads it; the hot path, so no query builder). */
export const FIND_CREDENTIAL = sqlStatement<{ connectorId: string }>(
  (p) => `SELECT * FROM "connector_credential" WHERE "connector_id" = ${p.connectorId}::text`,
).withRow(CREDENTIAL_ROW);

/**
 * Takes a connector's renewal lease when it is free or its holder's time ran out (the row answered, as the
 * lease left it), else nothing. One short statement on a pooled connection: nothing is held while the ATS is asked.
 */
export const CLAIM_RENEWAL_LEASE = sqlStatement<{ connectorId: string; owner: string; leaseMs: number }>(
  (p) => `UPDATE "connector_credential"
     SET "lease_owner" = ${p.owner}::text,
         "lease_until" = clock_timestamp() + ${p.leaseMs}::int * interval '1 millisecond'
   WHERE "connector_id" = ${p.connectorId}::text
     AND ("lease_until" IS NULL OR "lease_until" <= clock_timestamp())
   RETURNING *`,
).withRow(CREDENTIAL_ROW);

/** Gives the lease back, only if it is still ours (after its time, another may hold it). */
export const RELEASE_RENEWAL_LEASE = sqlStatement<{ connectorId: string; owner: string }>(
  (p) => `UPDATE "connector_credential" SET "lease_owner" = NULL, "lease_until" = NULL
   WHERE "connector_id" = ${p.connectorId}::text AND "lease_owner" = ${p.owner}::text`,
);

/**
 * The access in use that is due for renewal ahead of its end (with the fingerprint of the access to replace),
 * a bounded batch (the oldest due first). Each
 * is put off by `retryMs` as it is claimed, so another gateway process does not claim it too, and one whose
 * renewal fails is tried again after that; SKIP LOCKED: two ticks at once take different rows.
 */
export const CLAIM_DUE_RENEWALS = sqlStatement<{ limit: number; retryMs: number }>(
  (p) => `UPDATE "connector_credential"
     SET "renew_at" = now() + ${p.retryMs}::int * interval '1 millisecond'
   WHERE "connector_id" = ANY(ARRAY(
           SELECT "connector_id" FROM "connector_credential"
            WHERE "state" = 'active' AND "in_use" AND "renew_at" <= now()
            ORDER BY "renew_at" LIMIT ${p.limit}::int
            FOR UPDATE SKIP LOCKED))
   RETURNING "connector_id", "access_fingerprint"`,
).withRow({ connector_id: 'string', access_fingerprint: 'string | null' });

/** This access was handed to a worker: from now on it is renewed ahead of its end. Written once per access. */
export const MARK_IN_USE = sqlStatement<{ connectorId: string; fingerprint: string }>(
  (p) => `UPDATE "connector_credential" SET "in_use" = true
   WHERE "connector_id" = ${p.connectorId}::text AND "access_fingerprint" = ${p.fingerprint}::text
     AND NOT "in_use"`,
);
