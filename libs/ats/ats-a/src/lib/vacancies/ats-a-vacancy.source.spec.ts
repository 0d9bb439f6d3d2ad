import type { VacancyPartDeps } from '@connector/ats-core';
import type { ConnectorSnapshot } from '@connector/contracts';
import type { AtsAClient } from '../client/ats-a.client';
import type { AtsAOpenStatuses } from './ats-a-open-statuses';
import { AtsAVacancySource, listingFilters } from './ats-a-vacancy.source';
import { atsACompany, atsAContact, atsADate } from './ats-a-records';

describe('ATS-A listing', () => {
  it('asks a full listing for open, on-site vacancies by status Id, never by status name', () => {
    expect(listingFilters({ openStatusIds: [31, 7] })).toEqual([
      { Route: 'Vacancy.VacancyStatus', Operation: 'In', Value: [31, 7] },
      { Route: 'Vacancy.IncludeOnSite', Operation: 'Equals', Value: true },
    ]);
  });

  it('asks a changes-only listing for every vacancy modified since the anchor, whatever its status', () => {
    expect(listingFilters({ openStatusIds: [31], since: new Date('2026-11-21T10:00:00Z') })).toEqual([
      { Route: 'Vacancy.ModificationDate', Operation: 'GreaterThan', Value: '2026-11-21T10:00:00.000Z' },
    ]);
  });

  it('turns contacts and companies into the contract shapes, leaving out empty values', () => {
    expect(
      atsAContact({
        ContactId: 2000001,
        FirstName: 'Zoë',
        Surname: 'Ng',
        Email: null,
        Telephone: null,
        Mobile: '07700',
        JobTitle: 'Hiring manager',
        Company: null,
      }),
    ).toEqual({ externalId: '2000001', name: 'Zoë Ng', phone: '07700', jobTitle: 'Hiring manager' });
    expect(
      atsACompany({
        CompanyId: 1000001,
        Name: 'Acme',
        CompanyStatus: null,
        ParentCompany: null,
        Address: {
          Address1: '1 High St',
          Address2: null,
          Town: 'Leeds',
          County: null,
          PostCode: 'LS1',
          Country: 'UK',
        },
        Website: 'https://acme.example',
        LinkedIn: null,
        Telephone: '0113',
        Email: null,
      }),
    ).toEqual({
      name: 'Acme',
      address: '1 High St, Leeds, LS1, UK',
      links: { website: 'https://acme.example' },
      contact: { phone: '0113' },
    });
  });

  it('gives out a page with its contacts and companies fetched, and asks for the next page only when asked', async () => {
    // A budget-limited run commits page after page: the next page's calls must not compete with this page's.
    const calls: string[] = [];
    const vacancy = (id: number) => ({
      VacancyId: id,
      VacancyStatus: { Id: 1, Value: 'Open' },
      IncludeOnSite: true,
      Contact: { Id: 2000 + id, Value: 'A Contact' },
      Company: { Id: 1000 + id, Value: 'A Company' },
    });
    const client = {
      async *searchPages() {
        for (const page of [1, 2]) {
          calls.push(`vacancies ${page}`);
          yield { page, records: [vacancy(page)] };
        }
      },
      async search(resource: string) {
        calls.push(resource);
        await new Promise((resolve) => setImmediate(resolve));
        return { Records: [] };
      },
    };
    const source = new AtsAVacancySource(
      { client: () => client } as unknown as VacancyPartDeps<AtsAClient>,
      { resolve: async () => ({ ids: [1], missing: [], offered: ['Open'] }) } as unknown as AtsAOpenStatuses,
    );
    const pages = source.listLive(
      { id: 'c1' } as ConnectorSnapshot,
      { after: 0, openStatuses: ['Open'], now: new Date() },
      { priority: 'sync' },
    );

    const first = await pages.next();
    expect(first.value).toMatchObject({ after: 1, read: 1 });
    expect(calls.sort()).toEqual(['companies', 'contacts', 'vacancies 1']);
    await pages.return(undefined);
    expect(calls).not.toContain('vacancies 2');
  });

  it('reads dates without a zone as UTC', () => {
    const fallback = new Date(0);
    expect(atsADate('2026-11-20T10:00:00', fallback)).toBe('2026-11-20T10:00:00.000Z');
    expect(atsADate('2026-11-20T10:00:00+01:00', fallback)).toBe('2026-11-20T09:00:00.000Z');
    expect(atsADate(null, fallback)).toBe(fallback.toISOString());
  });
});
