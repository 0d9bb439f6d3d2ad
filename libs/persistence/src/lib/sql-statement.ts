import { rowsOf, type SqlQueryable } from './sql-rows';

/** A statement's parameters by name, each standing for its `$n` in the text: `${p.fence}::bigint`. */
export type Placeholders<P> = { readonly [K in keyof P]-?: string };

/** What a result column holds, as pg hands it over (int8 and numeric come as text: `string`). */
interface ColumnValues {
  string: string;
  number: number;
  boolean: boolean;
  date: Date;
  json: unknown;
  'string[]': string[];
  'number[]': number[];
}
export type ColumnType = keyof ColumnValues;

/** A statement's result row, column by column: `{ id: 'string', finished_at: 'date | null' }`. */
export type RowShape = Readonly<Record<string, ColumnType | `${ColumnType} | null`>>;

type ValueOf<T> = T extends `${infer C extends ColumnType} | null`
  ? ColumnValues[C] | null
  : T extends ColumnType
    ? ColumnValues[T]
    : never;

/** The row a shape declares, as TypeScript sees it. */
export type RowOf<S extends RowShape> = { -readonly [K in keyof S]: ValueOf<S[K]> };

/** The row a statement answers, as its declaration (`withRow`) types it: `StatementRow<typeof RUN>`. */
export type StatementRow<T> = T extends SqlStatement<never, infer R> ? R : never;

/**
 * A hand-written statement whose parameters have names. The text is written once: each name becomes a `$n` the
 * first time it is used and stands for the same `$n` after, so no number is counted by hand and a fragment
 * (`leaseCte`) takes the placeholders it uses instead of reserving numbers by convention. `params` puts one
 * call's values in that order; the text stays constant, so it can be prepared (`preparedStatements`).
 *
 * A statement that answers rows (SELECT, RETURNING) declares its row (`withRow`), and its `rows` are of that
 * type; one that does not answers none (`never`). tools/sql-statements.int-spec.ts holds every `*.sql.ts`
 * statement to that: it fails one that answers rows it does not declare.
 */
export class SqlStatement<P extends object, R = never> {
  readonly sql: string;
  private readonly names: ReadonlyArray<keyof P & string>;

  /**
   * @param row its result row, when declared (`withRow`): the type `rows` answers, and what
   *   tools/sql-statements.int-spec.ts checks against the columns Postgres describes for the statement.
   */
  constructor(
    private readonly write: (p: Placeholders<P>) => string,
    readonly row?: RowShape,
  ) {
    const names: Array<keyof P & string> = [];
    const placeholders = new Proxy({} as Placeholders<P>, {
      get: (_target, name) => {
        if (typeof name !== 'string') throw new TypeError('a statement parameter is named by a string');
        const known = names.indexOf(name as keyof P & string);
        if (known >= 0) return `$${known + 1}`;
        names.push(name as keyof P & string);
        return `$${names.length}`;
      },
    });
    this.sql = write(placeholders);
    this.names = names;
  }

  /** The values in their `$n` order. A value left undefined is a mistake (null is a value): TypeError. */
  params(values: P): unknown[] {
    return this.names.map((name) => {
      const value = values[name];
      if (value === undefined) throw new TypeError(`statement parameter ${name} has no value`);
      return value;
    });
  }

  /** The same statement with its result row declared: `rows` answers that type. */
  withRow<S extends RowShape>(row: S): SqlStatement<P, RowOf<S>> {
    return new SqlStatement<P, RowOf<S>>(this.write, row);
  }

  /** Runs it with `values` on `db`: the rows it answers. */
  async rows(db: SqlQueryable, values: P): Promise<R[]> {
    return rowsOf(await db.query(this.sql, this.params(values))) as R[];
  }
}

/** A statement with named parameters (SqlStatement), written with its placeholders. */
export function sqlStatement<P extends object>(write: (p: Placeholders<P>) => string): SqlStatement<P> {
  return new SqlStatement(write);
}
