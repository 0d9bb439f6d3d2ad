import { SandboxError } from '../sandbox.error';
import { MapStore } from '../store/record-source';
import { SearchEngine, parseSearchBody, toWire } from './search.engine';

interface Row {
  ContactId: number;
  FirstName: string;
  Email: string | null;
  Company: { Id: number } | null;
  ModificationDate: string;
}

function store(n: number): MapStore<Row> {
  const s = new MapStore<Row>(1);
  for (let i = 0; i < n; i++) {
    const id = s.allocateId();
    s.set(id, {
      ContactId: id,
      FirstName: i % 2 ? 'Zoë' : 'Łukasz',
      Email: i % 3 ? `p${id}@Example.com` : null,
      Company: i % 4 ? { Id: 100 + (i % 5) } : null,
      ModificationDate: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
    });
  }
  return s;
}

const search = (body: unknown, n = 20) =>
  new SearchEngine().search('contacts', store(n), parseSearchBody('contacts', body));

describe(SearchEngine.name, () => {
  it('pages every record exactly once, in id order', () => {
    const engine = new SearchEngine();
    const s = store(1234);
    const seen: number[] = [];
    let page = 1;
    let totalPages = 0;
    do {
      const result = engine.search(
        'contacts',
        s,
        parseSearchBody('contacts', { Paging: { RecordsPerPage: 100, RequestedPage: page } }),
      );
      totalPages = result.TotalPages;
      expect(result.CurrentPage).toBe(page);
      seen.push(...result.Records.map((r) => r['ContactId'] as number));
      page++;
    } while (page <= totalPages);
    expect(totalPages).toBe(13);
    expect(seen).toEqual(Array.from({ length: 1234 }, (_, i) => i + 1));
  });

  it('answers an empty result with TotalPages 0 and no records', () => {
    expect(search({ Filters: [{ Route: 'Contact.ContactId', Operation: 'Equals', Value: 999 }] })).toEqual({
      CurrentPage: 1,
      TotalPages: 0,
      Records: [],
    });
  });

  it('filters with GreaterThan and LessThan on dates, zone-less values being UTC', () => {
    const result = search({
      Filters: [
        { Route: 'Contact.ModificationDate', Operation: 'GreaterThan', Value: '2026-01-01T02:00:00' },
        { Route: 'Contact.ModificationDate', Operation: 'LessThan', Value: '2026-01-01T05:00:00Z' },
      ],
    });
    expect(result.Records.map((r) => r['ContactId'])).toEqual([4, 5]);
  });

  it('filters with In on ids, on links and case-insensitive Equals on text', () => {
    expect(
      search({
        Filters: [{ Route: 'Contact.ContactId', Operation: 'In', Value: [3, 1, 3, 99] }],
      }).Records.map((r) => r['ContactId']),
    ).toEqual([1, 3]);
    const byCompany = search({ Filters: [{ Route: 'Contact.Company', Operation: 'In', Value: [101, 102] }] });
    expect(byCompany.Records.every((r) => [101, 102].includes((r['Company'] as { Id: number }).Id))).toBe(
      true,
    );
    expect(
      search({ Filters: [{ Route: 'Contact.Company.Id', Operation: 'Equals', Value: 101 }] }).Records.length,
    ).toBeGreaterThan(0);
    expect(
      search({
        Filters: [{ Route: 'Contact.Email', Operation: 'Equals', Value: 'P2@EXAMPLE.COM' }],
      }).Records.map((r) => r['ContactId']),
    ).toEqual([2]);
    expect(
      search({ Filters: [{ Route: 'Contact.Email', Operation: 'Equals', Value: null }] }).Records.length,
    ).toBe(7);
  });

  it('compares a link by its Id only: a text value (even a numeric one) matches nothing, with no error', () => {
    expect(
      search({ Filters: [{ Route: 'Contact.Company', Operation: 'In', Value: ['101'] }] }).TotalPages,
    ).toBe(0);
    expect(
      search({ Filters: [{ Route: 'Contact.Company', Operation: 'Equals', Value: { Id: 101 } }] }).TotalPages,
    ).toBeGreaterThan(0);
  });

  it('leaves empty values out and writes date-times without offset, as the vendor serializes them', () => {
    const result = search({ Paging: { RecordsPerPage: 1, RequestedPage: 1 } });
    expect(result.Records[0]).toEqual({
      ContactId: 1,
      FirstName: 'Łukasz',
      ModificationDate: '2026-01-01T00:00:00',
    });
    expect(
      toWire({ A: null, B: '2026-01-02T03:04:05.120Z', C: [{ D: null, E: 'x' }], F: '2026-01-02' }),
    ).toEqual({
      B: '2026-01-02T03:04:05.120',
      C: [{ E: 'x' }],
      F: '2026-01-02',
    });
  });

  it('returns only the ResponseBlocks asked for, plus the id', () => {
    const result = search({ ResponseBlocks: ['FirstName'], Paging: { RecordsPerPage: 1, RequestedPage: 2 } });
    expect(result.Records).toEqual([{ ContactId: 2, FirstName: 'Zoë' }]);
  });

  it.each([
    [{ Paging: { RecordsPerPage: 501, RequestedPage: 1 } }],
    [{ Paging: { RecordsPerPage: 0, RequestedPage: 1 } }],
    [{ Paging: { RecordsPerPage: 10, RequestedPage: 0 } }],
    [{ Filters: [{ Route: 'Vacancy.VacancyId', Operation: 'Equals', Value: 1 }] }],
    [{ Filters: [{ Route: 'Contact.Nope', Operation: 'Equals', Value: 1 }] }],
    [{ Filters: [{ Route: 'Contact.ContactId', Operation: 'Like', Value: 1 }] }],
    [{ Filters: [{ Route: 'Contact.ContactId', Operation: 'In', Value: 1 }] }],
    [{ Filters: [{ Route: 'Contact.ModificationDate', Operation: 'GreaterThan', Value: 'yesterday' }] }],
    [{ ResponseBlocks: ['Nope'] }],
    [{ paging: {} }],
    [[]],
  ])('rejects %j as a validation error', (body) => {
    expect(() => parseSearchBody('contacts', body)).toThrow(SandboxError);
  });
});
