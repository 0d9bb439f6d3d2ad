import { sqlStatement } from './sql-statement';

describe(sqlStatement.name, () => {
  it('numbers each name once, in the order it is first used, and binds values by name', () => {
    const statement = sqlStatement<{ id: string; fence: number; note: string | null }>(
      (p) =>
        `UPDATE t SET note = ${p.note}, fence = ${p.fence}::bigint WHERE id = ${p.id} AND fence <= ${p.fence}`,
    );
    expect(statement.sql).toBe('UPDATE t SET note = $1, fence = $2::bigint WHERE id = $3 AND fence <= $2');
    expect(statement.params({ fence: 7, id: 'a', note: null })).toEqual([null, 7, 'a']);
  });

  it('lets a fragment take the placeholders it uses, whatever else the statement names', () => {
    const owner = (p: { readonly owner: string }) => `owner = ${p.owner}`;
    const statement = sqlStatement<{ id: string; owner: string }>(
      (p) => `SELECT 1 WHERE id = ${p.id} AND ${owner(p)}`,
    );
    expect(statement.sql).toBe('SELECT 1 WHERE id = $1 AND owner = $2');
  });

  it('refuses a value left undefined, naming the parameter', () => {
    const statement = sqlStatement<{ id: string }>((p) => `SELECT ${p.id}`);
    expect(() => statement.params({} as { id: string })).toThrow('statement parameter id has no value');
  });

  it('answers the rows of a run', async () => {
    const statement = sqlStatement<{ id: string }>((p) => `SELECT ${p.id} AS id`);
    const query = jest.fn(async () => ({ rows: [{ id: 'a' }] }));
    expect(await statement.rows({ query }, { id: 'a' })).toEqual([{ id: 'a' }]);
    expect(query).toHaveBeenCalledWith('SELECT $1 AS id', ['a']);
  });

  it('declares its result row: the same text and parameters, rows typed by the shape', async () => {
    const plain = sqlStatement<{ id: string }>(
      (p) => `SELECT ${p.id}::uuid AS id, now() AS at, NULL::int AS n`,
    );
    const typed = plain.withRow({ id: 'string', at: 'date', n: 'number | null' });
    expect(typed.sql).toBe(plain.sql);
    expect(typed.row).toEqual({ id: 'string', at: 'date', n: 'number | null' });
    const at = new Date();
    const [row] = await typed.rows(
      { query: async () => ({ rows: [{ id: 'a', at, n: null }] }) },
      { id: 'a' },
    );
    const read: { id: string; at: Date; n: number | null } | undefined = row;
    expect(read).toEqual({ id: 'a', at, n: null });
  });
});
