import { rowsOf, textColumn } from './sql-rows';

describe(rowsOf.name, () => {
  const rows = [{ key: 'a' }];

  it('reads pg results ({ rows })', () => {
    expect(rowsOf({ rows, rowCount: 1, command: 'SELECT' })).toBe(rows);
  });

  it('reads TypeORM results: the rows array, or [rows, rowCount] for UPDATE/DELETE', () => {
    expect(rowsOf(rows)).toBe(rows);
    expect(rowsOf([rows, 1])).toBe(rows);
    expect(rowsOf([])).toEqual([]);
  });

  it('refuses anything else', () => {
    expect(() => rowsOf(undefined)).toThrow(TypeError);
  });
});

describe(textColumn.name, () => {
  it('accepts text only', () => {
    expect(textColumn({ t: 'a' }, 't')).toBe('a');
    expect(() => textColumn({ t: 1 }, 't')).toThrow(TypeError);
    expect(() => textColumn({}, 't')).toThrow(TypeError);
  });
});
