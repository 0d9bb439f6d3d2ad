import {
  DataSource,
  type DataSourceOptions,
  type EntitySchema,
  type MigrationInterface,
  type MixedList,
} from 'typeorm';

type PostgresOptions = Extract<DataSourceOptions, { type: 'postgres' }>;

export interface PersistenceOptions {
  url: string;
  /** The owning service: names its migrations table, so services sharing a database keep separate histories. */
  service: string;
  // TypeORM's own list type: entity classes or schemas.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's entity list takes class constructors
  entities: MixedList<Function | string | EntitySchema>;
  migrations: Array<new () => MigrationInterface>;
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
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: `migrations_${options.service.replace(/-/g, '_')}`,
    migrationsRun: false,
    synchronize: options.synchronize ?? false,
    extra: { max: options.poolSize ?? 10, connectionTimeoutMillis: 5_000 },
  };
}

/** Whatever runs migrations takes this lock first, so replicas starting together never race on DDL. */
const MIGRATION_LOCK_KEY = 4_205_020_001;

export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}
