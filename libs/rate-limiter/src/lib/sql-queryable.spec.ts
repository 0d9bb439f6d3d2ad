import { nullableNumberColumn, numberColumn, rowsOf } from './sql-queryable';

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

describe(numberColumn.name, () => {
  it('accepts numbers and numeric strings, and null where allowed', () => {
    expect(numberColumn({ n: 1.5 }, 'n')).toBe(1.5);
    expect(numberColumn({ n: '2.5' }, 'n')).toBe(2.5);
    expect(() => numberColumn({ n: null }, 'n')).toThrow(TypeError);
    expect(nullableNumberColumn({ n: null }, 'n')).toBeNull();
  });
});
