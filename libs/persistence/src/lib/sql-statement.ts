import { rowsOf, type SqlQueryable, type SqlRow } from './sql-rows';

/** A statement's parameters by name, each standing for its `$n` in the text: `${p.fence}::bigint`. */
export type Placeholders<P> = { readonly [K in keyof P]-?: string };

/**
 * A hand-written statement whose parameters have names. The text is written once: each name becomes a `$n` the
 * first time it is used and stands for the same `$n` after, so no number is counted by hand and a fragment
 * (`leaseCte`) takes the placeholders it uses instead of reserving numbers by convention. `params` puts one
 * call's values in that order; the text stays constant, so it can be prepared (`preparedStatements`).
 */
export class SqlStatement<P extends object> {
  readonly sql: string;
  private readonly names: ReadonlyArray<keyof P & string>;

  constructor(write: (p: Placeholders<P>) => string) {
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

  /** Runs it with `values` on `db`: the rows it answers. */
  async rows(db: SqlQueryable, values: P): Promise<SqlRow[]> {
    return rowsOf(await db.query(this.sql, this.params(values)));
  }
}

/** A statement with named parameters (SqlStatement), written with its placeholders. */
export function sqlStatement<P extends object>(write: (p: Placeholders<P>) => string): SqlStatement<P> {
  return new SqlStatement(write);
}
