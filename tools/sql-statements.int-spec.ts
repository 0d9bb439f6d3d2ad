import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions, type PersistenceOptions, runMigrations } from '@connector/persistence';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { GENERATORS, sqlModules } from './sql-statement-modules';

/**
 * Every hand-written statement of the repository (sql-statement-modules.ts finds them), prepared (PREPARE:
 * parsed, its names resolved and its parameters typed, not run) against the migrated schema of the service it
 * runs in, so a renamed column or table fails here rather than in production. An app's statements are
 * checked against that app's schema; a lib's against every service's: each must prepare in at least one, and
 * fail in none but for lacking a table that service does not hold.
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
});
