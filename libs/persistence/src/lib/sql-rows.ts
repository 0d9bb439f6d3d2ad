import type { ObjectLiteral, Repository } from 'typeorm';

/**
 * What hand-written SQL needs from a connection: pg.Pool, pg.Client, a TypeORM DataSource, EntityManager or
 * QueryRunner all fit as they are, no adapter needed.
 */
export interface SqlQueryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

export type SqlRow = Record<string, unknown>;

/**
 * Rows out of whatever query() returned: pg gives `{ rows }`; TypeORM gives the rows array, except for a
 * bare UPDATE/DELETE where it gives `[rows, rowCount]`.
 */
export function rowsOf(result: unknown): SqlRow[] {
  if (Array.isArray(result)) {
    if (result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
      return result[0] as SqlRow[];
    }
    return result as SqlRow[];
  }
  if (typeof result === 'object' && result !== null && 'rows' in result && Array.isArray(result.rows)) {
    return result.rows as SqlRow[];
  }
  throw new TypeError('query() returned neither a rows array nor an object with rows');
}

/** A text column of a row whose statement declares none (a table's name is configuration: `retention.ts`). */
export function textColumn(row: SqlRow, column: string): string {
  const value = row[column];
  if (typeof value !== 'string') throw new TypeError(`column ${column} is not text: ${String(value)}`);
  return value;
}

/**
 * Entities from the raw rows of a statement that returned whole rows (`RETURNING *` of an UPDATE built with
 * the query builder): each column read by its database name and converted as TypeORM reads it.
 */
export function entitiesOf<T extends ObjectLiteral>(repository: Repository<T>, raw: unknown): T[] {
  const { metadata, manager } = repository;
  return rowsOf(raw).map((row) => {
    const entity = repository.create();
    for (const column of metadata.columns) {
      if (!(column.databaseName in row)) {
        throw new TypeError(`row of ${metadata.tableName} has no column ${column.databaseName}`);
      }
      column.setEntityValue(
        entity,
        manager.connection.driver.prepareHydratedValue(row[column.databaseName], column),
      );
    }
    return entity;
  });
}
