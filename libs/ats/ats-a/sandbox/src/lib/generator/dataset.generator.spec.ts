import { GeneratedDataset } from './dataset.generator';

const anchorMs = Date.parse('2026-06-01T00:00:00Z');

describe(GeneratedDataset.name, () => {
  it('gives the same data for the same seed and different data for another', () => {
    const a = new GeneratedDataset({ vacancies: 50, seed: 7, anchorMs });
    const b = new GeneratedDataset({ vacancies: 50, seed: 7, anchorMs });
    const c = new GeneratedDataset({ vacancies: 50, seed: 8, anchorMs });
    expect(a.vacancy(17)).toEqual(b.vacancy(17));
    expect(a.company(3)).toEqual(b.company(3));
    expect(a.contact(5)).toEqual(b.contact(5));
    expect(JSON.stringify(Array.from({ length: 50 }, (_, i) => a.vacancy(i)))).not.toEqual(
      JSON.stringify(Array.from({ length: 50 }, (_, i) => c.vacancy(i))),
    );
  });

  it('sizes companies and contacts at about N/5 and N/3, and links only to existing ones', () => {
    const d = new GeneratedDataset({ vacancies: 300, seed: 1, anchorMs });
    expect(d.companyCount).toBe(60);
    expect(d.contactCount).toBe(100);
    for (let i = 0; i < 300; i++) {
      const v = d.vacancy(i);
      if (v.Company) expect(d.companyIndexOf(v.Company.Id)).toBeGreaterThanOrEqual(0);
      if (v.Contact) {
        const contact = d.contact(d.contactIndexOf(v.Contact.Id));
        // A vacancy's contact works for the vacancy's company.
        if (v.Company) expect(contact.Company).toEqual(v.Company);
      }
    }
  });

  it('covers the awkward cases a client must handle', () => {
    const d = new GeneratedDataset({ vacancies: 2000, seed: 1, anchorMs });
    const all = Array.from({ length: 2000 }, (_, i) => d.vacancy(i));
    const text =
      JSON.stringify(all) + JSON.stringify(Array.from({ length: d.contactCount }, (_, k) => d.contact(k)));
    expect(text).toMatch(/Zoë|Łódź|東京/);
    expect(all.some((v) => v.VacancyStatus.Description === 'Closed')).toBe(true);
    expect(all.some((v) => v.DatePosted && Date.parse(v.DatePosted) > anchorMs)).toBe(true);
    expect(all.some((v) => v.AdvertisingEndDate && Date.parse(v.AdvertisingEndDate) < anchorMs)).toBe(true);
    expect(all.some((v) => !v.IncludeOnSite)).toBe(true);
    expect(all.some((v) => v.Salary === null && v.Contact === null)).toBe(true);
    expect(all.some((v) => v.Description?.includes('<script>'))).toBe(true);
    expect(all.every((v) => Date.parse(v.ModificationDate) < anchorMs)).toBe(true);
    const modified = new Set(all.map((v) => v.ModificationDate.slice(0, 7)));
    expect(modified.size).toBeGreaterThan(6); // spread over many months
  });

  // How fast is a benchmark's question (bench/), not a unit test's: a loaded CI machine made it flaky.
  it('keeps 100 000 vacancies compactly', () => {
    const d = new GeneratedDataset({ vacancies: 100_000, seed: 3, anchorMs });
    // The whole per-vacancy state is these typed arrays; everything else is rebuilt from the seed.
    const arrays: ArrayBufferView[] = [d.created, d.modified, d.posted, d.advertisingEnd, d.status, d.onSite];
    arrays.push(d.title, d.location, d.vacancyCompany, d.vacancyContact);
    const bytes = arrays.reduce((sum, array) => sum + array.byteLength, 0);
    expect(d.vacancy(99_999).VacancyId).toBe(100_000);
    expect(bytes).toBeLessThan(6 * 1024 * 1024);
  });
});
