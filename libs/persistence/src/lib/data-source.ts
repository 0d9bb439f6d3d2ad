import { DataSource, type DataSourceOptions, type MigrationInterface } from 'typeorm';
import { type EntityList, migrationsTableOf, type SharedSchema } from './shared-schema';

type PostgresOptions = Extract<DataSourceOptions, { type: 'postgres' }>;

export interface PersistenceOptions {
  url: string;
  /** The owning service: names its migrations table, so services sharing a database keep separate histories. */
  service: string;
  entities: EntityList;
  /** The service's own tables' migrations. */
  migrations: Array<new () => MigrationInterface>;
  /** Libs' tables the service uses: their entities join the service's, their migrations run in their owner's history. */
  shared?: SharedSchema[];
  /** The service's tables that have no entity (hand-written SQL only): its database role needs them too. */
  tables?: string[];
  /** Tests only: build the schema from entities instead of migrations. */
  synchronize?: boolean;
  poolSize?: number;
}

/** Every service's TypeORM options: Postgres, migrations (never `synchronize` outside tests). */
export function dataSourceOptions(options: PersistenceOptions): PostgresOptions {
  if (options.synchronize && process.env.NODE_ENV !== 'test') {
    throw new Error('synchronize is for tests only; write a migration');
  }
  return {
    type: 'postgres',
    url: options.url,
    entities: [...new Set([...(options.shared ?? []).flatMap((s) => s.entities), ...options.entities])],
    migrations: options.migrations,
    migrationsTableName: migrationsTableOf(options.service),
    migrationsRun: false,
    synchronize: options.synchronize ?? false,
    extra: { max: options.poolSize ?? 10, connectionTimeoutMillis: 5_000 },
  };
}

/** Whatever runs migrations takes this lock first, so replicas starting together never race on DDL. */
const MIGRATION_LOCK_KEY = 4_205_020_001;

/**
 * Applies pending migrations under the lock: first the shared schemas', each owner's in its own history
 * (`migrations_<owner>`), then the service's own. Returns the names applied.
 */
export async function runMigrations(dataSource: DataSource, shared: SharedSchema[] = []): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied: string[] = [];
    for (const [owner, migrations] of migrationsByOwner(shared)) {
      applied.push(...(await runOwnerMigrations(dataSource, owner, migrations)));
    }
    const own = await dataSource.runMigrations({ transaction: 'each' });
    return [...applied, ...own.map((migration) => migration.name)];
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}

function migrationsByOwner(shared: SharedSchema[]): Map<string, Array<new () => MigrationInterface>> {
  const byOwner = new Map<string, Array<new () => MigrationInterface>>();
  for (const schema of shared) {
    const list = byOwner.get(schema.owner) ?? [];
    byOwner.set(schema.owner, [...new Set([...list, ...schema.migrations])]);
  }
  return byOwner;
}

/** TypeORM records migrations in its data source's one table: a short-lived one writes the owner's. */
async function runOwnerMigrations(
  dataSource: DataSource,
  owner: string,
  migrations: Array<new () => MigrationInterface>,
): Promise<string[]> {
  const options = dataSource.options as PostgresOptions;
  const ownerSource = new DataSource({
    ...options,
    entities: [],
    migrations,
    migrationsTableName: migrationsTableOf(owner),
    extra: { ...options.extra, max: 1 },
  });
  await ownerSource.initialize();
  try {
    const applied = await ownerSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await ownerSource.destroy();
  }
}
