export type Row = Record<string, unknown>;

/**
 * TypeORM's postgres `query()` answers rows for SELECT and INSERT, but `[rows, rowCount]` for UPDATE and
 * DELETE; this gives the rows either way.
 */
export function rowsOf(result: unknown): Row[] {
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  ) {
    return result[0] as Row[];
  }
  return result as Row[];
}
