import fc from 'fast-check';
import { defaultJobMapping } from '@connector/ats-registry';
import { buildVacancyUpsert } from '../vacancies/vacancy-content';
import { splitByLiveness, toSourceVacancy } from '@connector/ats-a';
import { EnrichmentCache } from '@connector/ats-core';

/**
 * Vendor-shaped ATS-A records in every representation real instances use (ids as numbers or text, booleans as
 * true/1/"true", empty values null, absent or blank, dates with or without offset, HTML in text), generated
 * from plain facts; the published vacancy must follow the facts, never the representation.
 */
const DAY = 86_400_000;
const NOW = new Date('2026-03-10T12:00:00Z');
const TODAY = Date.UTC(2026, 2, 10);
const OPEN_IDS = [31, 7];
const STATUSES = [
  { Id: 31, Description: 'Open' },
  { Id: 7, Description: 'Live' },
  { Id: 3, Description: 'Closed' },
  { Id: 18, Description: 'Open (Internal)' },
  { Id: 45, Description: 'Filled' },
];

interface Facts {
  id: number;
  status: (typeof STATUSES)[number] | undefined;
  onSite: boolean | undefined;
  /** Instants (whole seconds), or none. */
  posted: number | undefined;
  ends: number | undefined;
  modified: number;
  title: string;
  description: string | undefined;
  contact: { id: number; first: string; surname: string; email: string | undefined } | undefined;
  company: { id: number; name: string; town: string | undefined } | undefined;
}

const wholeSecond = (from: number, to: number) =>
  fc.integer({ min: from / 1000, max: to / 1000 }).map((s) => s * 1000);
const text = fc.stringMatching(/^[A-Za-zÀ-ž東京 '-]{1,20}$/).filter((s) => s.trim() !== '');

const facts: fc.Arbitrary<Facts> = fc.record({
  id: fc.integer({ min: 1, max: 900_000 }),
  status: fc.option(fc.constantFrom(...STATUSES), { nil: undefined }),
  onSite: fc.option(fc.boolean(), { nil: undefined, freq: 6 }),
  posted: fc.option(wholeSecond(TODAY - 60 * DAY, TODAY + 10 * DAY), { nil: undefined }),
  ends: fc.option(wholeSecond(TODAY - 10 * DAY, TODAY + 60 * DAY), { nil: undefined }),
  modified: wholeSecond(TODAY - 400 * DAY, TODAY),
  title: text,
  description: fc.option(
    fc.constantFrom(
      '<p>Care &amp; <strong>kindness</strong></p>',
      '<ul><li>NMC</li></ul><script>x()</script>',
      'Plain',
    ),
    { nil: undefined },
  ),
  contact: fc.option(
    fc.record({
      id: fc.integer({ min: 2_000_001, max: 2_900_000 }),
      first: text,
      surname: text,
      email: fc.option(fc.constant('a.b@example.com'), { nil: undefined }),
    }),
    { nil: undefined },
  ),
  company: fc.option(
    fc.record({
      id: fc.integer({ min: 1_000_001, max: 1_900_000 }),
      name: text,
      town: fc.option(text, { nil: undefined }),
    }),
    { nil: undefined },
  ),
});

// ---- representations ---------------------------------------------------------------------------------------

type Pick = <T>(choices: readonly T[]) => T;

function idOf(id: number, pick: Pick): number | string {
  return pick([id, String(id), ` ${id} `]);
}

function booleanOf(value: boolean, pick: Pick): unknown {
  return value ? pick([true, 1, '1', 'true', 'True']) : pick([false, 0, '0', 'false']);
}

function dateOf(ms: number, pick: Pick, dateOnlyAllowed: boolean): string {
  const iso = new Date(ms).toISOString(); // 2026-03-10T12:00:00.000Z
  const plus2 = new Date(ms + 2 * 3_600_000).toISOString().slice(0, 19) + '+02:00';
  const minus5 = new Date(ms - 5 * 3_600_000).toISOString().slice(0, 19) + '-05:00';
  const forms = [iso, iso.slice(0, 19), iso.slice(0, 19) + 'Z', iso.slice(0, 23), plus2, minus5];
  return pick(dateOnlyAllowed ? [...forms, iso.slice(0, 10)] : forms);
}

/** An empty optional value: null, left out, or blank text where the field is text. */
function put(record: Record<string, unknown>, key: string, value: unknown, pick: Pick, blank = false): void {
  if (value !== undefined) {
    record[key] = value;
    return;
  }
  const empty = pick(blank ? ['null', 'absent', 'blank'] : ['null', 'absent']);
  if (empty === 'null') record[key] = null;
  if (empty === 'blank') record[key] = '  ';
}

function vacancyRecord(f: Facts, pick: Pick): Record<string, unknown> {
  const record: Record<string, unknown> = {
    VacancyId: idOf(f.id, pick),
    Title: { Id: pick([900, '900']), Description: f.title },
    ModificationDate: dateOf(f.modified, pick, false),
    UnknownField: pick([1, 'x', null]),
  };
  put(
    record,
    'VacancyStatus',
    f.status && { Id: idOf(f.status.Id, pick), Description: f.status.Description },
    pick,
  );
  put(record, 'IncludeOnSite', f.onSite === undefined ? undefined : booleanOf(f.onSite, pick), pick);
  // A date-only form names the day of the instant; keep the instant's UTC day in every other form too.
  put(record, 'DatePosted', f.posted === undefined ? undefined : dateOf(f.posted, pick, true), pick, true);
  put(
    record,
    'AdvertisingEndDate',
    f.ends === undefined ? undefined : dateOf(f.ends, pick, true),
    pick,
    true,
  );
  put(record, 'Description', f.description, pick, true);
  put(record, 'Contact', f.contact && { Id: idOf(f.contact.id, pick) }, pick);
  put(record, 'Company', f.company && { Id: idOf(f.company.id, pick) }, pick);
  return record;
}

function contactRecord(c: NonNullable<Facts['contact']>, pick: Pick): Record<string, unknown> {
  const record: Record<string, unknown> = {
    ContactId: idOf(c.id, pick),
    FirstName: c.first,
    Surname: c.surname,
  };
  put(record, 'Email', c.email, pick, true);
  put(record, 'Telephone', undefined, pick, true);
  return record;
}

function companyRecord(c: NonNullable<Facts['company']>, pick: Pick): Record<string, unknown> {
  const record: Record<string, unknown> = { CompanyId: idOf(c.id, pick), Name: c.name };
  const address: Record<string, unknown> = {};
  put(address, 'Town', c.town, pick, true);
  put(address, 'Address1', undefined, pick, true);
  // Without a town the address may be there with only empty values, or be null or absent.
  put(record, 'Address', c.town !== undefined || pick([true, false]) ? address : undefined, pick);
  return record;
}

// ---- the model: liveness from the facts alone ---------------------------------------------------------------

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A zone-less or date-only value is read as UTC, so every form of an instant names its UTC day. */
function liveByFacts(f: Facts): boolean {
  if (!f.status || !OPEN_IDS.includes(f.status.Id) || f.onSite !== true) return false;
  const today = utcDay(NOW.getTime());
  if (f.posted !== undefined && utcDay(f.posted) > today) return false;
  if (f.ends !== undefined && utcDay(f.ends) < today) return false;
  return true;
}

const picker = fc.infiniteStream(fc.nat()).map((stream) => {
  const it = stream[Symbol.iterator]();
  const pick: Pick = (choices) => choices[(it.next().value as number) % choices.length];
  return pick;
});

describe('ATS-A records in every representation (property-based)', () => {
  it('decides liveness from the facts, and publishes ids, dates, contact and company from them', () => {
    fc.assert(
      fc.property(fc.array(facts, { minLength: 1, maxLength: 8 }), picker, (page, pick) => {
        // One record per id, as in an ATS: a vacancy once, a contact or company the same wherever linked.
        const contactsById = new Map<number, Facts['contact']>();
        const companiesById = new Map<number, Facts['company']>();
        const unique = [...new Map(page.map((f) => [f.id, f])).values()].map((f) => {
          if (f.contact && !contactsById.has(f.contact.id)) contactsById.set(f.contact.id, f.contact);
          if (f.company && !companiesById.has(f.company.id)) companiesById.set(f.company.id, f.company);
          return {
            ...f,
            contact: f.contact && contactsById.get(f.contact.id),
            company: f.company && companiesById.get(f.company.id),
          };
        });
        const records = unique.map((f) => vacancyRecord(f, pick));
        const { live, closed } = splitByLiveness(records, OPEN_IDS, NOW);

        const contacts = new EnrichmentCache<Record<string, unknown>>(100);
        const companies = new EnrichmentCache<Record<string, unknown>>(100);
        for (const f of unique) {
          if (f.contact) contacts.set(f.contact.id, contactRecord(f.contact, pick));
          if (f.company) companies.set(f.company.id, companyRecord(f.company, pick));
        }

        const expectedLive = unique.filter((f) => liveByFacts(f)).map((f) => String(f.id));
        expect(live.map((r) => String(Number(String(r['VacancyId']).trim())))).toEqual(expectedLive);
        expect(closed).toEqual(
          unique.filter((f) => !expectedLive.includes(String(f.id))).map((f) => String(f.id)),
        );

        for (const record of live) {
          const f = unique.find((x) => String(x.id) === String(record['VacancyId']).trim()) as Facts;
          const source = toSourceVacancy(record, contacts, companies, NOW);
          expect(source.externalId).toBe(String(f.id));
          expect(source.updatedAt).toBe(new Date(f.modified).toISOString());
          expect(source.liveUntil).toBe(f.ends === undefined ? undefined : utcDay(f.ends));
          expect(source.contact?.externalId).toBe(f.contact ? String(f.contact.id) : undefined);
          if (f.contact) {
            expect(source.contact?.name).toBe(`${f.contact.first.trim()} ${f.contact.surname.trim()}`);
            expect(source.contact?.email).toBe(f.contact.email);
          }
          expect(source.company?.name).toBe(f.company?.name.trim());
          expect(source.company?.address).toBe(f.company?.town?.trim() || undefined);

          const upsert = buildVacancyUpsert('c1', 'ats-a', defaultJobMapping('ats-a'), source);
          expect(upsert).toMatchObject({
            externalId: String(f.id),
            title: f.title.trim(),
            status: f.status?.Description,
            description: f.description ?? '',
            fields: { companyName: f.company?.name.trim() ?? '' },
          });
        }
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('ATS-A representation variants, one at a time', () => {
  const base = {
    VacancyId: 12,
    VacancyStatus: { Id: 31, Description: 'Open' },
    IncludeOnSite: true,
    Title: { Id: 1, Description: 'Nurse' },
    ModificationDate: '2026-03-01T10:00:00Z',
  };
  const isLive = (change: Record<string, unknown>) =>
    splitByLiveness([{ ...base, ...change }], OPEN_IDS, NOW).live.length === 1;

  it.each<[string, boolean, Record<string, unknown>]>([
    ['IncludeOnSite true', true, { IncludeOnSite: true }],
    ['IncludeOnSite 1', true, { IncludeOnSite: 1 }],
    ['IncludeOnSite "1"', true, { IncludeOnSite: '1' }],
    ['IncludeOnSite "true"', true, { IncludeOnSite: 'true' }],
    ['IncludeOnSite false', false, { IncludeOnSite: false }],
    ['IncludeOnSite 0', false, { IncludeOnSite: 0 }],
    ['IncludeOnSite "false"', false, { IncludeOnSite: 'false' }],
    ['IncludeOnSite null', false, { IncludeOnSite: null }],
    ['IncludeOnSite absent', false, { IncludeOnSite: undefined }],
    ['status id as text', true, { VacancyStatus: { Id: '31', Description: 'Open' } }],
    ['status by label only (no id)', false, { VacancyStatus: { Description: 'Open' } }],
    ['status null', false, { VacancyStatus: null }],
    ['end date null', true, { AdvertisingEndDate: null }],
    ['end date blank', true, { AdvertisingEndDate: '' }],
    ['end date yesterday without offset', false, { AdvertisingEndDate: '2026-03-09T23:59:59' }],
    ['end date today, date only', true, { AdvertisingEndDate: '2026-03-10' }],
    ['posted tomorrow with offset', false, { DatePosted: '2026-03-11T03:00:00+02:00' }],
    ['posted tomorrow in its zone, today in UTC', true, { DatePosted: '2026-03-11T01:00:00+02:00' }],
    ['posted tomorrow by offset', false, { DatePosted: '2026-03-10T22:00:00-05:00' }],
  ])('%s → live: %s', (_name, expected, change) => {
    expect(isLive(change)).toBe(expected);
  });

  it('reads the vacancy id as a number or numeric text, and skips a record without one', () => {
    expect(splitByLiveness([{ ...base, VacancyId: '12' }], OPEN_IDS, NOW).live).toHaveLength(1);
    expect(splitByLiveness([{ ...base, VacancyId: null }], OPEN_IDS, NOW)).toEqual({ live: [], closed: [] });
    expect(splitByLiveness([{ ...base, VacancyId: 12, IncludeOnSite: 0 }], OPEN_IDS, NOW).closed).toEqual([
      '12',
    ]);
  });

  it('keeps HTML in text as it is, and reads dates without offset as UTC', () => {
    const record = { ...base, Description: '<p>A &amp; B</p>', ModificationDate: '2026-03-01T10:00:00' };
    const source = toSourceVacancy(record, new EnrichmentCache(1), new EnrichmentCache(1), NOW);
    expect(source.updatedAt).toBe('2026-03-01T10:00:00.000Z');
    expect(buildVacancyUpsert('c1', 'ats-a', defaultJobMapping('ats-a'), source)?.description).toBe(
      '<p>A &amp; B</p>',
    );
  });

  it('reads links with ids as text, and an enriched record whose empty values are null, absent or blank', () => {
    const contacts = new EnrichmentCache<Record<string, unknown>>(2);
    contacts.set(2000001, {
      ContactId: '2000001',
      FirstName: 'Zoë',
      Surname: ' Ng ',
      Email: '  ',
      Mobile: null,
    });
    const companies = new EnrichmentCache<Record<string, unknown>>(2);
    companies.set(1000001, { CompanyId: 1000001, Name: 'Acme', Address: null });
    const source = toSourceVacancy(
      { ...base, Contact: { Id: '2000001' }, Company: { Id: 1000001 } },
      contacts,
      companies,
      NOW,
    );
    expect(source.contact).toEqual({ externalId: '2000001', name: 'Zoë Ng' });
    expect(source.company).toEqual({ name: 'Acme', links: {} });
  });
});
