import { DataSource } from 'typeorm';
import { dataSourceOptions, type PersistenceOptions, runMigrations } from '../lib/data-source';

/** Tables as code declares them: the entities, and the migrations (own and shared) that build them. */
export type SchemaDeclaration = Pick<PersistenceOptions, 'service' | 'entities' | 'migrations' | 'shared'>;

/** What a test may add to the service's options: a smaller pool, a query logger, … */
type DataSourceExtras = Partial<Omit<ReturnType<typeof dataSourceOptions>, 'type' | 'url'>>;

/**
 * A data source on the (empty) database at `url`, opened as the service opens it (its own migrations table),
 * with the tables its migrations, own and shared, build: what a suite's `beforeAll` needs. The caller destroys it.
 */
export async function migratedDataSource(
  url: string,
  schema: SchemaDeclaration & Pick<PersistenceOptions, 'poolSize'>,
  extras: DataSourceExtras = {},
): Promise<DataSource> {
  const dataSource = new DataSource({ ...dataSourceOptions({ ...schema, url }), ...extras });
  await dataSource.initialize();
  try {
    await runMigrations(dataSource, schema.shared);
    return dataSource;
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
}
