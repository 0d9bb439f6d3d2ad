import { GeneratedDataset } from '../generator/dataset.generator';
import { SandboxError } from '../sandbox.error';
import { VacancyStore } from './vacancy.store';

describe(VacancyStore.name, () => {
  const anchorMs = Date.parse('2026-06-01T00:00:00Z');
  const now = anchorMs + 3_600_000;
  const make = () => new VacancyStore(new GeneratedDataset({ vacancies: 10, seed: 1, anchorMs }), () => now);

  it('serves fast-path fields equal to the full record', () => {
    const store = make();
    for (let id = 1; id <= 10; id++) {
      const v = store.get(id)!;
      expect(store.field(id, 'ModificationDate')).toBe(Date.parse(v.ModificationDate));
      expect(store.field(id, 'VacancyStatus')).toEqual(v.VacancyStatus);
      expect(store.field(id, 'Title')).toEqual(v.Title);
      expect(store.field(id, 'Company')).toBe(v.Company?.Id ?? null);
      expect(store.field(id, 'IncludeOnSite')).toBe(v.IncludeOnSite);
    }
  });

  it('bumps ModificationDate strictly on every change, even within the same instant', () => {
    const store = make();
    const first = store.update(3, { VacancyStatus: 'Closed' });
    const second = store.update(3, { Location: 'Łódź' });
    expect(Date.parse(first.ModificationDate)).toBe(now);
    expect(Date.parse(second.ModificationDate)).toBeGreaterThan(now);
    expect(second.VacancyStatus.Description).toBe('Closed');
    expect(second.Location).toEqual({ Id: 203, Description: 'Łódź' });
    expect(store.field(3, 'VacancyStatus')).toEqual({ Id: 3, Description: 'Closed' });
  });

  it('adds after the generated ids and hides removed ones', () => {
    const store = make();
    const added = store.add({ Title: 'Barista', Company: 1_000_001 });
    expect(added.VacancyId).toBe(11);
    expect(added.Company).toEqual({ Id: 1_000_001 });
    store.remove(2);
    const ids: number[] = [];
    store.forEachId((id) => ids.push(id));
    expect(ids).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(store.get(2)).toBeUndefined();
    expect(() => store.update(2, {})).toThrow(SandboxError);
    expect(() => store.update(1, { VacancyStatus: 'Nope' })).toThrow(SandboxError);
    expect(() => store.update(1, { Bogus: 1 } as never)).toThrow(SandboxError);
  });
});
