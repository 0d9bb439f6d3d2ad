import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { EntitySchema, getMetadataArgsStorage } from 'typeorm';
import type { PersistenceOptions } from './data-source';
import type { RowOwnership } from './shared-schema';
import type { SqlQueryable } from './sql-rows';
import {
  CURRENT_ROLE,
  MISSING_RIGHTS,
  PUBLIC_COLUMNS,
  PUBLIC_SCHEMA_CREATE,
  ROLE_POWERS,
  SEQUENCES_OF,
} from './service-roles.sql';

/** The tables a service uses, as its schema declares them. */
export type ServiceTables = Pick<PersistenceOptions, 'entities' | 'shared' | 'tables'>;

/** A service's own database role and the schema it may use. */
export interface ServiceRole {
  service: string;
  role: string;
  schema: ServiceTables;
}

/** Each table's privileges a service role gets: what its statements and repositories do, no DDL. */
const TABLE_RIGHTS = ['SELECT', 'INSERT', 'UPDATE', 'DELETE'] as const;

/** A name Postgres takes unquoted: roles and tables here are code, never input. */
const PLAIN_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * A service's database role: its name with underscores (`connector_registry`). Roles are the cluster's,
 * not a database's: tests add a suffix of their own.
 */
export function databaseRoleOf(service: string, suffix = ''): string {
  return plain(`${service.replace(/-/g, '_')}${suffix}`);
}

/** The tables a service's role may use: its entities', its hand-SQL-only tables, and its shared schemas'. */
export function tablesOf(schema: ServiceTables): string[] {
  const entities = [...schema.entities, ...(schema.shared ?? []).flatMap((shared) => shared.entities)];
  const stored = getMetadataArgsStorage().tables;
  const names = entities.map((entity) => {
    const name =
      entity instanceof EntitySchema
        ? (entity.options.tableName ?? entity.options.name)
        : stored.find((table) => table.target === entity)?.name;
    if (!name) throw new Error(`${String(entity)}: not an entity with a table name`);
    return name;
  });
  return [...new Set([...names, ...(schema.tables ?? [])])].sort();
}

function ownRowsOf(schema: ServiceTables): RowOwnership[] {
  return (schema.shared ?? []).flatMap((shared) => shared.ownRows ?? []);
}

function plain(name: string): string {
  if (!PLAIN_NAME.test(name)) throw new Error(`"${name}" is not a plain Postgres name`);
  return name;
}

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** The sequences that go with `tables` (serial columns, OWNED BY): a role inserting rows draws from them. */
async function sequencesOf(db: SqlQueryable, tables: string[]): Promise<string[]> {
  return (await SEQUENCES_OF.rows(db, { tables })).map((row) => row.sequence);
}

/** The tables of the schema `public` as they are now, each with its columns. */
async function columnsByTable(db: SqlQueryable): Promise<Map<string, string[]>> {
  const tables = new Map<string, string[]>();
  for (const { table, column } of await PUBLIC_COLUMNS.rows(db, {})) {
    tables.set(table, [...(tables.get(table) ?? []), plain(column)]);
  }
  return tables;
}

/**
 * Gives each service's role exactly the rights its schema needs, and nothing it had before beyond them: DML on
 * its tables, its tables' sequences, and on a shared table with per-service rows (`ownRows`) only its own
 * rows, by row-level security. Rows such a table has from before the roles (another `owner_role`: everything
 * was one role's) become each of those services' own. Tables the migrations have not made yet are left for
 * the migrate step, which runs this again. Idempotent; run as the tables' owner (the migrator), in one
 * transaction, so a running service never sees its rights half applied.
 */
export async function grantServiceRoles(db: SqlQueryable, roles: ServiceRole[]): Promise<void> {
  await db.query('BEGIN');
  try {
    const existing = await columnsByTable(db);
    for (const { service, role: name, schema } of roles) {
      const role = plain(name);
      const tables = tablesOf(schema)
        .filter((table) => existing.has(table))
        .map(plain);
      await db.query(`REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${role}`);
      await db.query(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM ${role}`);
      await db.query(`GRANT USAGE ON SCHEMA public TO ${role}`);
      if (tables.length > 0)
        await db.query(`GRANT ${TABLE_RIGHTS.join(', ')} ON ${tables.join(', ')} TO ${role}`);
      const sequences = (await sequencesOf(db, tables)).map(plain);
      if (sequences.length > 0) await db.query(`GRANT USAGE ON SEQUENCE ${sequences.join(', ')} TO ${role}`);
      for (const { table, column, holds } of ownRowsOf(schema)) {
        if (!existing.get(table)?.includes(column)) continue;
        const own = `${plain(column)} = ${literal(holds === 'service' ? service : role)}`;
        await db.query(`ALTER TABLE ${plain(table)} ENABLE ROW LEVEL SECURITY`);
        await db.query(`DROP POLICY IF EXISTS ${role}_rows ON ${table}`);
        await db.query(
          `CREATE POLICY ${role}_rows ON ${table} TO ${role} USING (${own}) WITH CHECK (${own})`,
        );
      }
    }
    await adoptEarlierRows(db, roles, existing);
    await noTablesOfTheirOwn(db);
    await db.query('COMMIT');
  } catch (error) {
    await db.query('ROLLBACK');
    throw error;
  }
}

/**
 * Only the migrator creates tables: Postgres 15 gives PUBLIC no CREATE on the schema `public`, but a database
 * made by an earlier version keeps it. Its owner takes it away here; anyone else is told to.
 */
async function noTablesOfTheirOwn(db: SqlQueryable): Promise<void> {
  const [schema] = await PUBLIC_SCHEMA_CREATE.rows(db, {});
  if (!schema?.open) return;
  if (!schema.ours) {
    throw new Error(
      'every role may create tables in the schema public: REVOKE CREATE ON SCHEMA public FROM PUBLIC as its owner',
    );
  }
  await db.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
}

/** Rows of `owner_role` tables written before the roles: copied to each service holding the table. */
async function adoptEarlierRows(
  db: SqlQueryable,
  roles: ServiceRole[],
  existing: Map<string, string[]>,
): Promise<void> {
  const holders = new Map<string, { column: string; roles: string[] }>();
  for (const { role, schema } of roles) {
    for (const { table, column, holds } of ownRowsOf(schema)) {
      if (holds !== 'role' || !existing.get(table)?.includes(column)) continue;
      const entry = holders.get(table) ?? { column, roles: [] };
      holders.set(table, { ...entry, roles: [...entry.roles, role] });
    }
  }
  const names = roles.map((each) => each.role);
  for (const [table, { column, roles: owners }] of holders) {
    const list = (existing.get(table) ?? []).filter((each) => each !== column).join(', ');
    await db.query(
      `INSERT INTO ${table} (${list}, ${column})
         SELECT ${list}, o.role FROM ${table} CROSS JOIN unnest($1::text[]) AS o(role)
          WHERE ${table}.${column} <> ALL($2::text[])
       ON CONFLICT DO NOTHING`,
      [owners, names],
    );
    await db.query(`DELETE FROM ${table} WHERE ${column} <> ALL($1::text[])`, [names]);
  }
}

/**
 * Creates the role, or updates it: it logs in with `password`, and may do nothing else of its own (no role or
 * database creation; a role that is a superuser, or bypasses row-level security, is refused: only a superuser
 * could take that away). The password goes to Postgres as a SCRAM-SHA-256 verifier, never in clear (not in
 * its logs either). Run as a role with CREATEROLE.
 */
export async function ensureLoginRole(db: SqlQueryable, role: string, password: string): Promise<void> {
  const name = plain(role);
  const [found] = await ROLE_POWERS.rows(db, { role: name });
  if (found?.powerful) {
    throw new Error(
      `role ${name} is a superuser, or bypasses row-level security, or replicates: not a service's`,
    );
  }
  const options = `LOGIN NOCREATEDB NOCREATEROLE NOINHERIT PASSWORD ${literal(scramVerifier(password))}`;
  await db.query(`${found ? 'ALTER' : 'CREATE'} ROLE ${name} WITH ${options}`);
}

/** Postgres's SCRAM-SHA-256 verifier of a password (RFC 5802/7677, as `ALTER ROLE … PASSWORD` stores it). */
export function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password.normalize('NFKC'), salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest('base64');
  const serverKey = createHmac('sha256', salted).update('Server Key').digest('base64');
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey}:${serverKey}`;
}

/** A service started with a role that lacks a right its schema needs: it says which, at boot. */
export class DatabaseRightsError extends Error {
  constructor(
    readonly role: string,
    readonly missing: string[],
  ) {
    super(
      `database role "${role}" lacks ${missing.join('; ')}: grant them as the tables' owner ` +
        '(npm run db-roles, or the migrate step), or apply the migrations',
    );
    this.name = 'DatabaseRightsError';
  }
}

/**
 * What this connection's role lacks for the service's schema (empty: nothing): a table missing or a right on
 * it, a sequence's, or, on a shared table under row-level security, a policy that shows the role its rows.
 */
export async function missingDatabaseRights(db: SqlQueryable, schema: ServiceTables): Promise<string[]> {
  const rows = await MISSING_RIGHTS.rows(db, {
    tables: tablesOf(schema),
    rights: [...TABLE_RIGHTS],
    ownRowTables: ownRowsOf(schema).map((own) => own.table),
  });
  return rows.map((row) => row.missing).sort();
}

/** DatabaseRightsError unless this connection's role may do all the service's schema needs. */
export async function assertDatabaseRights(db: SqlQueryable, schema: ServiceTables): Promise<void> {
  const missing = await missingDatabaseRights(db, schema);
  if (missing.length === 0) return;
  const [row] = await CURRENT_ROLE.rows(db, {});
  throw new DatabaseRightsError(row?.role ?? 'the current role', missing);
}
