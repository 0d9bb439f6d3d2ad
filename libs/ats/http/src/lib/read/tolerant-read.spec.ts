import fc from 'fast-check';
import { readBoolean, readDate, readId, readInt, readObject, readText } from './tolerant-read';

describe('tolerant readers', () => {
  it('reads booleans in every representation real instances send', () => {
    for (const yes of [true, 1, '1', 'true', 'TRUE', ' True ', 'yes']) expect(readBoolean(yes)).toBe(true);
    for (const no of [false, 0, '0', 'false', 'False', 'no']) expect(readBoolean(no)).toBe(false);
    for (const unknown of [null, undefined, '', 2, 'maybe', {}, []])
      expect(readBoolean(unknown)).toBeUndefined();
  });

  it('reads ids given as numbers or numeric strings', () => {
    expect(readInt(42)).toBe(42);
    expect(readInt('42')).toBe(42);
    expect(readInt(' 42 ')).toBe(42);
    expect(readInt(42.5)).toBeUndefined();
    expect(readInt('')).toBeUndefined();
    expect(readInt(null)).toBeUndefined();
    expect(readId(42)).toBe('42');
    expect(readId('0042')).toBe('42');
    expect(readId('JOB-7')).toBe('JOB-7');
    expect(readId(null)).toBeUndefined();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(readId(n)).toBe(String(n));
        expect(readId(String(n))).toBe(String(n));
      }),
    );
  });

  it('reads text, treating empty and null as absent', () => {
    expect(readText('  Leeds ')).toBe('Leeds');
    expect(readText('')).toBeUndefined();
    expect(readText('   ')).toBeUndefined();
    expect(readText(null)).toBeUndefined();
    expect(readText(7)).toBe('7');
    expect(readText({})).toBeUndefined();
  });

  it('reads dates with or without an offset, and epoch milliseconds', () => {
    expect(readDate('2026-11-20T10:00:00')?.toISOString()).toBe('2026-11-20T10:00:00.000Z');
    expect(readDate('2026-11-20T10:00:00+01:00')?.toISOString()).toBe('2026-11-20T09:00:00.000Z');
    expect(readDate('2026-11-20')?.toISOString()).toBe('2026-11-20T00:00:00.000Z');
    expect(readDate(1_763_632_800_000)?.toISOString()).toBe('2025-11-20T10:00:00.000Z');
    expect(readDate('1763632800000')?.toISOString()).toBe('2025-11-20T10:00:00.000Z');
    expect(readDate('not a date')).toBeUndefined();
    expect(readDate(null)).toBeUndefined();
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1971-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        (d) => {
          expect(readDate(d.toISOString())?.getTime()).toBe(d.getTime());
          expect(readDate(d.getTime())?.getTime()).toBe(d.getTime());
        },
      ),
    );
  });

  it('reads objects, never failing on null', () => {
    expect(readObject(null)).toBeUndefined();
    expect(readObject([])).toBeUndefined();
    expect(readObject({ a: 1 })).toEqual({ a: 1 });
  });
});
