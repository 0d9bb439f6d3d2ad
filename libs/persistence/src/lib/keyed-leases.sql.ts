import { type Placeholders, sqlStatement } from './sql-statement';

/** What takes a lease: its namespace and key, the new holder, and how long it lasts unrenewed (s). */
export interface LeaseValues {
  leaseNamespace: string;
  leaseKey: string;
  leaseOwner: string;
  leaseTtlSeconds: number;
}

/**
 * The lease inserted, or one that lapsed taken over, with the next fencing token, as a CTE named `lease`
 * (column `token`); a lease still held is left alone and the CTE has no row. For a statement that does more
 * in the same round trip (KeyedLeases.withLockBy), written with its placeholders (sqlStatement).
 */
export function leaseCte(p: Placeholders<LeaseValues>): string {
  return `lease AS (
  INSERT INTO "keyed_lease" AS kl ("namespace", "key", "owner", "expires_at", "token")
  VALUES (${p.leaseNamespace}, ${p.leaseKey}, ${p.leaseOwner},
          clock_timestamp() + make_interval(secs => ${p.leaseTtlSeconds}::float8), nextval('keyed_lease_token'))
  ON CONFLICT ("namespace", "key") DO UPDATE
    SET "owner" = EXCLUDED."owner", "expires_at" = EXCLUDED."expires_at", "token" = EXCLUDED."token"
    WHERE kl."expires_at" < clock_timestamp()
  RETURNING kl."token"
)`;
}

/** The lease alone. Written by hand: it runs once per message. */
export const ACQUIRE_LEASE = sqlStatement<LeaseValues>(
  (p) => `WITH ${leaseCte(p)} SELECT "token" FROM lease`,
).withRow({ token: 'string' });

/** Which lease a holder's last statement releases: its namespace, key and owner. */
export interface LeaseRelease {
  releaseNamespace: string;
  releaseKey: string;
  releaseOwner: string;
}

/** The holder's release as a CTE, for its last statement, written with its placeholders (sqlStatement). */
export function leaseReleaseCte(p: Placeholders<LeaseRelease>): string {
  return `released_lease AS (
  DELETE FROM "keyed_lease"
   WHERE "namespace" = ${p.releaseNamespace} AND "key" = ${p.releaseKey} AND "owner" = ${p.releaseOwner}
)`;
}

/** Deletes the leases of a namespace's holders, keys and owners side by side: releases batched together. */
export const RELEASE_LEASES = sqlStatement<{ namespace: string; keys: string[]; owners: string[] }>(
  (p) => `DELETE FROM "keyed_lease" WHERE "namespace" = ${p.namespace}
  AND ("key", "owner") IN (SELECT * FROM unnest(${p.keys}::text[], ${p.owners}::text[]))`,
);

/**
 * Renews the lease while this holder (owner and token) still has it; a lease lapses `ttlSeconds` after its last
 * renewal, by the database's clock. Answers a row when renewed, none when the lease is no longer its.
 */
export const RENEW_LEASE = sqlStatement<{
  namespace: string;
  key: string;
  owner: string;
  token: string;
  ttlSeconds: number;
}>(
  (p) => `
  UPDATE "keyed_lease" SET "expires_at" = clock_timestamp() + make_interval(secs => ${p.ttlSeconds}::float8)
  WHERE "namespace" = ${p.namespace} AND "key" = ${p.key} AND "owner" = ${p.owner} AND "token" = ${p.token}::bigint
  RETURNING true AS "renewed"`,
).withRow({ renewed: 'boolean' });
