/**
 * The one thing the Postgres limiter needs from a connection: pg.Pool, pg.Client, a TypeORM DataSource or
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

/** A numeric column; pg returns float8 as number but numeric as string, so accept both. */
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
