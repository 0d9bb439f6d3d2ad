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

/** A numeric column; pg returns float8 as number but numeric and bigint as string, so accept both. */
export function numberColumn(row: SqlRow, column: string): number {
  const raw = row[column];
  // Number(null) and Number('') are 0, which would hide a missing column as an empty bucket.
  const value = typeof raw === 'number' || (typeof raw === 'string' && raw !== '') ? Number(raw) : NaN;
  if (!Number.isFinite(value))
    throw new TypeError(`column ${column} is not a number: ${String(row[column])}`);
  return value;
}

export function nullableNumberColumn(row: SqlRow, column: string): number | null {
  return row[column] === null || row[column] === undefined ? null : numberColumn(row, column);
}

export function textColumn(row: SqlRow, column: string): string {
  const value = row[column];
  if (typeof value !== 'string') throw new TypeError(`column ${column} is not text: ${String(value)}`);
  return value;
}

/** A text column that may be null (or absent): undefined then. */
export function optionalTextColumn(row: SqlRow, column: string): string | undefined {
  return row[column] === null || row[column] === undefined ? undefined : textColumn(row, column);
}

export function booleanColumn(row: SqlRow, column: string): boolean {
  const value = row[column];
  if (typeof value !== 'boolean') throw new TypeError(`column ${column} is not a boolean: ${String(value)}`);
  return value;
}

/** A timestamp column (pg returns timestamptz as a Date). */
export function dateColumn(row: SqlRow, column: string): Date {
  const value = row[column];
  if (!(value instanceof Date)) throw new TypeError(`column ${column} is not a timestamp: ${String(value)}`);
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

/** A timestamp column that may be null (or absent): undefined then. */
export function optionalDateColumn(row: SqlRow, column: string): Date | undefined {
  return row[column] === null || row[column] === undefined ? undefined : dateColumn(row, column);
}
