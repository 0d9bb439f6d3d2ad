import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client, type Submittable } from 'pg';
import { DataSource } from 'typeorm';
import {
  type ColumnType,
  dataSourceOptions,
  type PersistenceOptions,
  type RowShape,
  runMigrations,
  sqlStatement,
} from '@connector/persistence';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { GENERATORS, sqlModules } from './sql-statement-modules';

/**
 * Every hand-written statement of the repository (sql-statement-modules.ts finds them), prepared (PREPARE:
 * parsed, its names resolved and its parameters typed, not run) against the migrated schema of the service it
 * runs in, so a renamed column or table fails here rather than in production. An app's statements are
 * checked against that app's schema; a lib's against every service's: each must prepare in at least one, and
 * fail in none but for lacking a table that service does not hold. A statement that answers rows (SELECT,
 * RETURNING) must declare its result row (`withRow`) and answer those columns, of those types, as Postgres
 * describes them: no baseline of undeclared ones.
 */

const ROOT = join(__dirname, '..');

/** Postgres's "relation does not exist": a lib's table this service does not hold. */
const UNDEFINED_TABLE = '42P01';

interface Service {
  name: string;
  schema: Pick<PersistenceOptions, 'entities' | 'migrations' | 'shared'>;
  database?: TestDatabase;
  session?: Client;
}

/** The service's schema: the one export of apps/<service>/src/app/<service>.schema.ts with migrations. */
async function serviceOf(name: string): Promise<Service> {
  const exports = (await import(join(ROOT, 'apps', name, 'src', 'app', `${name}.schema.ts`))) as Record<
    string,
    unknown
  >;
  const [schema] = Object.values(exports).filter(
    (value): value is Service['schema'] =>
      typeof value === 'object' && value !== null && 'migrations' in value && 'entities' in value,
  );
  if (!schema) throw new Error(`apps/${name}: its schema module exports no { entities, migrations }`);
  return { name, schema };
}

/** The error preparing `sql` on `session`, or undefined when it prepared. */
async function prepareError(
  session: Client,
  sql: string,
): Promise<{ code?: string; message: string } | undefined> {
  try {
    await session.query(`PREPARE sql_statement_check AS ${sql}`);
    await session.query('DEALLOCATE sql_statement_check');
    return undefined;
  } catch (error) {
    return error as { code?: string; message: string };
  }
}

/** What pg hands over for a column of each type (its type parsers; OIDs from pg_type). Others are not checked. */
const COLUMN_TYPES: Record<number, ColumnType> = {
  16: 'boolean', // bool
  20: 'string', // int8
  21: 'number', // int2
  23: 'number', // int4
  700: 'number', // float4
  701: 'number', // float8
  1700: 'string', // numeric
  25: 'string', // text
  1042: 'string', // bpchar
  1043: 'string', // varchar
  2950: 'string', // uuid
  1082: 'date', // date
  1114: 'date', // timestamp
  1184: 'date', // timestamptz
  114: 'json', // json
  3802: 'json', // jsonb
  1007: 'number[]', // int4[]
  1009: 'string[]', // text[]
  1015: 'string[]', // varchar[]
  2951: 'string[]', // uuid[]
  19: 'string', // name (catalogs)
  2278: 'string', // void (pg_advisory_xact_lock): ''
};

interface Column {
  name: string;
  dataTypeID: number;
}

/**
 * The result columns of `sql` as Postgres describes them (Parse and Describe, as a driver prepares a statement):
 * nothing runs. Empty for a statement that answers no rows.
 */
function describeColumns(session: Client, sql: string): Promise<Column[]> {
  return new Promise((resolve, reject) => {
    let columns: Column[] = [];
    const describe = {
      submit(connection: {
        parse(query: { text: string; name: string; types: number[] }): void;
        describe(message: { type: 'S'; name: string }): void;
        sync(): void;
      }) {
        connection.parse({ text: sql, name: '', types: [] });
        connection.describe({ type: 'S', name: '' });
        connection.sync();
      },
      handleRowDescription: (message: { fields: Column[] }) => (columns = message.fields),
      // pg drops a query at its error: the ReadyForQuery after it is not told to this one.
      handleError: reject,
      handleReadyForQuery: () => resolve(columns),
      handleCommandComplete: () => undefined,
      handleEmptyQuery: () => undefined,
      handleDataRow: () => undefined,
    };
    session.query(describe as unknown as Submittable);
  });
}

/** How the declared row differs from the columns: missing, undeclared, or of another type. */
function rowMismatches(row: RowShape, columns: readonly Column[]): string[] {
  const declared = new Map(Object.entries(row).map(([name, type]) => [name, type.replace(/ \| null$/, '')]));
  const mismatches = [...declared.keys()]
    .filter((name) => !columns.some((column) => column.name === name))
    .map((name) => `declares ${name}, which the statement does not answer`);
  for (const { name, dataTypeID } of columns) {
    const type = declared.get(name);
    const actual = COLUMN_TYPES[dataTypeID];
    if (type === undefined) mismatches.push(`answers ${name}, which the row does not declare`);
    else if (actual !== undefined && actual !== type) {
      mismatches.push(
        `declares ${name} as ${type}, but pg hands it over as ${actual} (type oid ${dataTypeID})`,
      );
    }
  }
  return mismatches;
}

/** The shape that declares `columns` as pg hands them over (nullability is the writer's to add). */
function shapeOf(columns: readonly Column[]): string {
  const entries = columns.map(({ name, dataTypeID }) => {
    const key = /^[a-z_]\w*$/i.test(name) ? name : `'${name}'`;
    return `${key}: '${COLUMN_TYPES[dataTypeID] ?? 'string'}'`;
  });
  return `{ ${entries.join(', ')} }`;
}

/**
 * Why a statement's declared row (or its lack of one) does not fit the columns it answers: one that answers
 * rows must declare them (`withRow`), so its callers read typed rows instead of casting.
 */
function rowFailures(row: RowShape | undefined, columns: readonly Column[]): string[] {
  if (row) return rowMismatches(row, columns);
  if (columns.length === 0) return [];
  return [`answers rows but declares none: add .withRow(${shapeOf(columns)})`];
}

describe('hand-written SQL (*.sql.ts)', () => {
  const services: Service[] = [];

  beforeAll(async () => {
    const names = readdirSync(join(ROOT, 'apps')).filter((name) => {
      try {
        return statSync(join(ROOT, 'apps', name, 'src', 'app', `${name}.schema.ts`)).isFile();
      } catch {
        return false;
      }
    });
    for (const name of names) {
      const service = await serviceOf(name);
      services.push(service);
      service.database = await createTestDatabase(`sql_${name.replace(/-/g, '_')}`);
      const db = await new DataSource(
        dataSourceOptions({ url: service.database.url, service: name, ...service.schema }),
      ).initialize();
      try {
        await runMigrations(db, service.schema.shared);
      } finally {
        await db.destroy();
      }
      service.session = new Client({ connectionString: service.database.url });
      await service.session.connect();
    }
  }, 300_000);

  afterAll(async () => {
    for (const service of services) {
      await service.session?.end();
      await service.database?.drop();
    }
  });

  it('finds the statements of every *.sql.ts module and every service schema', async () => {
    expect(services.map((s) => s.name).sort()).toEqual([
      'auth-gateway',
      'candidate-sync',
      'connector-registry',
      'document-service',
      'vacancy-sync',
    ]);
    const empty = (await sqlModules())
      .filter((module) => module.statements.length === 0 && !GENERATORS.includes(module.path))
      .map((module) => module.path);
    // A *.sql.ts whose statements this test cannot see would go unchecked: export them as sqlStatements.
    expect(empty).toEqual([]);
  });

  it('prepares each against the migrated schema of the service it runs in', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const { path: module, app, statements } of await sqlModules()) {
      const targets = app ? services.filter((s) => s.name === app) : services;
      if (targets.length === 0) {
        if (statements.length > 0) failures.push(`${module}: no service schema for app ${app}`);
        continue;
      }
      for (const statement of statements) {
        checked += 1;
        const errors = await Promise.all(
          targets.map(async (service) => ({
            service,
            error: await prepareError(service.session!, statement.sql),
          })),
        );
        const prepared = errors.filter(({ error }) => !error).length;
        // A lib's statement may touch a table only some services hold; anything else is a real failure.
        const real = errors.filter(({ error }) => error && (app || error.code !== UNDEFINED_TABLE));
        for (const { service, error } of real) {
          failures.push(`${module} ${statement.name} in ${service.name}'s schema: ${error!.message}`);
        }
        if (prepared === 0 && real.length === 0) {
          failures.push(
            `${module} ${statement.name} prepares in no service's schema: ${errors
              .map(({ service, error }) => `${service.name}: ${error!.message}`)
              .join('; ')}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  });

  it('declares the row of each statement that answers rows, and answers it: its columns, of their types', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const { path: module, app, statements } of await sqlModules()) {
      const targets = app ? services.filter((s) => s.name === app) : services;
      for (const { name, sql, row } of statements) {
        // A lib's statement is described where it prepares (the test above checks that it does somewhere).
        for (const service of targets) {
          if (await prepareError(service.session!, sql)) continue;
          checked += 1;
          const columns = await describeColumns(service.session!, sql);
          failures.push(...rowFailures(row, columns).map((failure) => `${module} ${name}: ${failure}`));
          break;
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  });

  it('fails a row undeclared, or declared with a column missing, renamed or of another type (the check above can fail)', async () => {
    const statement = sqlStatement<{ accountId: string }>(
      (p) => `
      SELECT count(*)::int AS count, max(queued_at) AS newest, bool_or(status = 'running') AS running
      FROM run WHERE account_id = ${p.accountId}`,
    );
    const registry = services.find((s) => s.name === 'connector-registry')!;
    const columns = await describeColumns(registry.session!, statement.sql);
    expect(
      rowMismatches(
        statement.withRow({ count: 'number', newest: 'date | null', running: 'boolean | null' }).row!,
        columns,
      ),
    ).toEqual([]);
    expect(
      rowMismatches(statement.withRow({ count: 'number', newest: 'date | null' }).row!, columns),
    ).toEqual(['answers running, which the row does not declare']);
    expect(
      rowMismatches(statement.withRow({ total: 'number', newest: 'date', running: 'boolean' }).row!, columns),
    ).toEqual([
      'declares total, which the statement does not answer',
      'answers count, which the row does not declare',
    ]);
    expect(
      rowMismatches(
        statement.withRow({ count: 'string', newest: 'string', running: 'boolean' }).row!,
        columns,
      ),
    ).toEqual([
      'declares count as string, but pg hands it over as number (type oid 23)',
      'declares newest as string, but pg hands it over as date (type oid 1184)',
    ]);
    expect(rowFailures(undefined, columns)).toEqual([
      "answers rows but declares none: add .withRow({ count: 'number', newest: 'date', running: 'boolean' })",
    ]);
    const update = `UPDATE run SET status = 'failed' WHERE account_id = $1`;
    expect(rowFailures(undefined, await describeColumns(registry.session!, update))).toEqual([]);
    await expect(describeColumns(registry.session!, 'SELECT no_such_column FROM run')).rejects.toThrow(
      /no_such_column/,
    );
  });
});
