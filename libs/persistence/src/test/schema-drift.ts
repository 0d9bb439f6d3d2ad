import { DataSource } from 'typeorm';
import { dataSourceOptions, type PersistenceOptions, runMigrations } from '../lib/data-source';

/** Tables as code declares them: the entities, and the migrations (own and shared) that build them. */
export type SchemaDeclaration = Pick<PersistenceOptions, 'service' | 'entities' | 'migrations' | 'shared'>;

/**
 * The SQL TypeORM would still run to make the tables match the entities, once the migrations built them
 * in the (empty) database at `url`: empty when entities and migrations agree. For tests.
 */
export async function schemaDrift(url: string, schema: SchemaDeclaration): Promise<string[]> {
  const dataSource = new DataSource(dataSourceOptions({ ...schema, url, poolSize: 2 }));
  try {
    await dataSource.initialize();
    await runMigrations(dataSource, schema.shared);
    const pending = await dataSource.driver.createSchemaBuilder().log();
    return pending.upQueries.map((query) => query.query);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
  }
}
