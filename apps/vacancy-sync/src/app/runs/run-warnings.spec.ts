import { runWarnings } from './run-warnings';

const counts = { fetched: 0, upserted: 0, unchanged: 0, closed: 0 };

describe(runWarnings.name, () => {
  it('warns when a complete listing read vacancies but published none', () => {
    const [warning] = runWarnings({ mode: 'full', read: 12, counts, warnings: [] });
    expect(warning.code).toBe('NOTHING_LIVE');
    expect(warning.message).toContain('returned 12 vacancies');
  });

  it('says nothing when something was live, or a changes-only run read only closed ones', () => {
    expect(
      runWarnings({ mode: 'full', read: 12, counts: { ...counts, unchanged: 1 }, warnings: [] }),
    ).toEqual([]);
    expect(
      runWarnings({ mode: 'incremental', read: 3, counts: { ...counts, closed: 3 }, warnings: [] }),
    ).toEqual([]);
    expect(runWarnings({ mode: 'full', read: 0, counts, warnings: [] })).toEqual([]);
  });

  it('keeps the source warnings, one of each', () => {
    const w = { code: 'UNKNOWN_STATUSES', message: 'x' };
    expect(runWarnings({ mode: 'incremental', read: 0, counts, warnings: [w, { ...w }] })).toEqual([w]);
  });
});
