import { VACANCY_STATUSES } from '../ats-a.protocol';
import { GeneratedDataset } from '../generator/dataset.generator';
import { VacancyStore } from '../store/vacancy.store';
import { SearchEngine, parseSearchBody } from './search.engine';

const dataset = new GeneratedDataset({ vacancies: 400, seed: 3, anchorMs: Date.UTC(2026, 5, 1) });
const statusId = (label: string) => VACANCY_STATUSES.find((s) => s.Description === label)?.Id ?? NaN;

function ids(filters: unknown[]): number[] {
  const engine = new SearchEngine();
  const result = engine.search(
    'vacancies',
    new VacancyStore(dataset),
    parseSearchBody('vacancies', { Paging: { RecordsPerPage: 500, RequestedPage: 1 }, Filters: filters }),
  );
  return result.Records.map((r) => r['VacancyId'] as number);
}

function expected(labels: string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < dataset.vacancyCount; i++) {
    if (labels.includes(dataset.vacancy(i).VacancyStatus.Description)) out.push(dataset.vacancyId(i));
  }
  return out;
}

describe('vacancy status filters (ats-a.md: pick lists compare the Id)', () => {
  it('uses per-customer ids that are not 1, 2, 3 in list order', () => {
    expect(VACANCY_STATUSES.map((s) => s.Id)).not.toEqual(VACANCY_STATUSES.map((_, i) => i + 1));
    expect(statusId('Open')).not.toBe(1);
  });

  it('finds the vacancies of the statuses whose Ids are given with In', () => {
    const found = ids([
      { Route: 'Vacancy.VacancyStatus', Operation: 'In', Value: [statusId('Open'), statusId('Live')] },
    ]);
    expect(found.length).toBeGreaterThan(100);
    expect(found).toEqual(expected(['Open', 'Live']));
  });

  it('matches nothing, without an error, when the Value is a Description', () => {
    expect(ids([{ Route: 'Vacancy.VacancyStatus', Operation: 'In', Value: ['Open', 'Live'] }])).toEqual([]);
    expect(ids([{ Route: 'Vacancy.VacancyStatus', Operation: 'Equals', Value: 'Open' }])).toEqual([]);
  });

  it('compares the text on the sub-route VacancyStatus.Description (ignoring case) and the id on .Id', () => {
    expect(ids([{ Route: 'Vacancy.VacancyStatus.Description', Operation: 'Equals', Value: 'open' }])).toEqual(
      expected(['Open']),
    );
    expect(
      ids([{ Route: 'Vacancy.VacancyStatus.Id', Operation: 'Equals', Value: statusId('Closed') }]),
    ).toEqual(expected(['Closed']));
  });

  it('compares links (Company, Contact) by Id as well', () => {
    const companyId = dataset.companyId(0);
    const found = ids([{ Route: 'Vacancy.Company', Operation: 'Equals', Value: companyId }]);
    expect(found.length).toBeGreaterThan(0);
    expect(ids([{ Route: 'Vacancy.Company', Operation: 'Equals', Value: String(companyId) }])).toEqual([]);
  });
});
