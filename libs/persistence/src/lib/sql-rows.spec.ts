import { booleanColumn, nullableNumberColumn, numberColumn, rowsOf, textColumn } from './sql-rows';

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

describe(textColumn.name, () => {
  it('accepts text only', () => {
    expect(textColumn({ t: 'a' }, 't')).toBe('a');
    expect(() => textColumn({ t: 1 }, 't')).toThrow(TypeError);
    expect(() => textColumn({}, 't')).toThrow(TypeError);
  });
});

describe(booleanColumn.name, () => {
  it('accepts booleans only', () => {
    expect(booleanColumn({ b: false }, 'b')).toBe(false);
    expect(() => booleanColumn({ b: 'true' }, 'b')).toThrow(TypeError);
  });
});
