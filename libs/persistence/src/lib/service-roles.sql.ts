import { sqlStatement } from './sql-statement';

/** The sequences that go with `tables` (serial columns, OWNED BY): a role inserting rows draws from them. */
export const SEQUENCES_OF = sqlStatement<{ tables: string[] }>(
  (p) => `
  SELECT DISTINCT s.relname AS "sequence" FROM pg_depend d
    JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
    JOIN pg_class t ON t.oid = d.refobjid
   WHERE t.relname = ANY(${p.tables}::text[]) AND t.relnamespace = 'public'::regnamespace AND d.deptype = 'a'`,
).withRow({ sequence: 'string' });

/** Every column of the schema `public`, table by table, in their order. */
export const PUBLIC_COLUMNS = sqlStatement<Record<string, never>>(
  () => `
  SELECT table_name::text AS "table", column_name::text AS "column" FROM information_schema.columns
   WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
).withRow({ table: 'string', column: 'string' });

/** Whether every role may create tables in the schema `public` (`open`), and whether this role owns it. */
export const PUBLIC_SCHEMA_CREATE = sqlStatement<Record<string, never>>(
  () => `
  SELECT has_schema_privilege('public', 'public', 'CREATE') AS "open", pg_has_role(nspowner, 'USAGE') AS "ours"
    FROM pg_namespace WHERE nspname = 'public'`,
).withRow({ open: 'boolean', ours: 'boolean' });

/** Whether the role is more than a service's may be: a superuser, bypassing row-level security, or replicating. */
export const ROLE_POWERS = sqlStatement<{ role: string }>(
  (p) =>
    `SELECT rolsuper OR rolbypassrls OR rolreplication AS "powerful" FROM pg_roles WHERE rolname = ${p.role}`,
).withRow({ powerful: 'boolean' });

/**
 * What this connection's role lacks on `tables` (each of `rights`), their sequences, and, of `ownRowTables`
 * under row-level security, a policy that shows it its rows: one line each.
 */
export const MISSING_RIGHTS = sqlStatement<{ tables: string[]; rights: string[]; ownRowTables: string[] }>(
  (p) => `
  WITH sequences AS MATERIALIZED (
    SELECT s.oid, s.relname FROM pg_depend d
      JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
      JOIN pg_class t ON t.oid = d.refobjid
     WHERE t.relname = ANY(${p.tables}::text[]) AND t.relnamespace = 'public'::regnamespace AND d.deptype = 'a')
  SELECT w.t || CASE WHEN c.oid IS NULL THEN ' (no such table)'
                ELSE ' (' || string_agg(r.p, ', ' ORDER BY r.o) || ')' END AS "missing"
    FROM unnest(${p.tables}::text[]) AS w(t)
    LEFT JOIN pg_class c ON c.oid = to_regclass('public.' || quote_ident(w.t))
    CROSS JOIN unnest(${p.rights}::text[]) WITH ORDINALITY AS r(p, o)
   WHERE c.oid IS NULL OR NOT has_table_privilege(c.oid, r.p)
   GROUP BY w.t, c.oid
  UNION ALL
  SELECT 'sequence ' || relname || ' (USAGE)' FROM sequences WHERE NOT has_sequence_privilege(oid, 'USAGE')
  UNION ALL
  SELECT t.relname || ' (a row policy: it would see none of its rows)' FROM pg_class t
   WHERE t.relname = ANY(${p.ownRowTables}::text[]) AND t.relnamespace = 'public'::regnamespace
     AND t.relrowsecurity
     AND NOT pg_has_role(t.relowner, 'USAGE')
     AND NOT (SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user)
     AND NOT EXISTS (SELECT 1 FROM pg_policies p WHERE p.schemaname = 'public' AND p.tablename = t.relname
                       AND (current_user = ANY(p.roles) OR 'public' = ANY(p.roles)))`,
).withRow({ missing: 'string' });

/** This connection's role. */
export const CURRENT_ROLE = sqlStatement<Record<string, never>>(
  () => `SELECT current_user::text AS "role"`,
).withRow({ role: 'string' });
