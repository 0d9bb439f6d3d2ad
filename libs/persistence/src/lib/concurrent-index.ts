import type { QueryRunner } from 'typeorm';

/**
 * Builds an index on a table that may already be large and busy (run history, links at fleet size) without
 * blocking its writes: `CREATE INDEX CONCURRENTLY`, so the migration that calls it sets `transaction = false`.
 * An earlier attempt that was interrupted leaves an invalid index of that name: it is dropped and built again.
 * `definition` is code, never input: `ON "table" ("column", …) [WHERE …]`.
 */
export async function createIndexConcurrently(
  queryRunner: QueryRunner,
  name: string,
  definition: string,
): Promise<void> {
  const invalid: unknown = await queryRunner.query(
    `SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace AND NOT i.indisvalid`,
    [name],
  );
  if (Array.isArray(invalid) && invalid.length > 0) {
    await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`);
  }
  await queryRunner.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS "${name}" ${definition}`);
}

export async function dropIndexConcurrently(queryRunner: QueryRunner, name: string): Promise<void> {
  await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`);
}
