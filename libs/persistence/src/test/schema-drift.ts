import { migratedDataSource, type SchemaDeclaration } from './migrated-data-source';

/**
 * The SQL TypeORM would still run to make the tables match the entities, once the migrations built them
 * in the (empty) database at `url`: empty when entities and migrations agree. For tests.
 */
export async function schemaDrift(url: string, schema: SchemaDeclaration): Promise<string[]> {
  const dataSource = await migratedDataSource(url, { ...schema, poolSize: 2 });
  try {
    const pending = await dataSource.driver.createSchemaBuilder().log();
    return pending.upQueries.map((query) => query.query);
  } finally {
    await dataSource.destroy();
  }
}
