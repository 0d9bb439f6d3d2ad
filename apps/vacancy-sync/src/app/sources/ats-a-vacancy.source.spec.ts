import { listingFilters } from './ats-a-vacancy.source';
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

  it('reads dates without a zone as UTC', () => {
    const fallback = new Date(0);
    expect(atsADate('2026-11-20T10:00:00', fallback)).toBe('2026-11-20T10:00:00.000Z');
    expect(atsADate('2026-11-20T10:00:00+01:00', fallback)).toBe('2026-11-20T09:00:00.000Z');
    expect(atsADate(null, fallback)).toBe(fallback.toISOString());
  });
});
