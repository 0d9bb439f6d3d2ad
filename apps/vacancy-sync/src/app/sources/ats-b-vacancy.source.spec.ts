import fc from 'fast-check';
import {
  ATS_B_JOB_FIELDS,
  ATS_B_JOB_ORDER_FIELDS,
  type AtsBClient,
  type AtsBJobOrder,
  type AtsBJobOrderIdPagesOptions,
  AtsBVacancySource,
  atsBJobState,
  atsBPage,
  toAtsBSourceVacancy,
} from '@connector/ats-b';
import type { SourcePage, VacancyPartDeps } from '@connector/ats-core';
import type { ConnectorSnapshot } from '@connector/contracts';
import { atsRegistry, defaultJobMapping } from '@connector/ats-registry';
import { buildVacancyUpsert } from '../vacancies/vacancy-content';

const NOW = new Date('2026-11-21T10:00:00.000Z');
const MODIFIED = Date.UTC(2026, 10, 20, 9, 30);

/** A job exactly as the vendor's data model sends it. */
const vendorJob: AtsBJobOrder = {
  id: 4711,
  title: 'Welder',
  address: { address1: '1 Road', address2: null, city: 'Boston', state: 'MA', zip: '02108', countryID: 1 },
  publicDescription: '<p>Weld <b>things</b> &amp; more</p>',
  description: 'internal notes',
  skillList: 'MIG, TIG',
  employmentType: 'Permanent',
  status: 'Accepting Candidates',
  isOpen: true,
  isPublic: 1,
  isDeleted: false,
  dateAdded: MODIFIED - 86_400_000,
  dateLastModified: MODIFIED,
  clientCorporation: { id: 9, name: 'Acme Ltd' },
  clientContact: { id: 31, firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.example', phone: null },
};

/** A job the way some instance sends it, outside the vendor's types: read as the vendor type regardless. */
const variant = (overrides: Record<string, unknown>, omit: readonly string[] = []): AtsBJobOrder => {
  const job: Record<string, unknown> = { ...vendorJob, ...overrides };
  for (const key of omit) delete job[key];
  return job as unknown as AtsBJobOrder;
};

const publish = (job: AtsBJobOrder) =>
  buildVacancyUpsert('c1', 'ats-b', defaultJobMapping('ats-b'), toAtsBSourceVacancy(job, NOW));

describe('ATS-B job liveness', () => {
  it('takes an open, published (isPublic 1), not deleted job as the vendor sends it', () => {
    expect(atsBJobState(vendorJob, { listedOpen: false })).toBe('live');
  });

  it.each([1, '1', true, 'true', 'TRUE'])('reads isPublic %p as published', (isPublic) => {
    expect(atsBJobState(variant({ isPublic }), { listedOpen: false })).toBe('live');
  });

  it.each([0, '0', false, 'false', null])('reads isPublic %p as not published: closed', (isPublic) => {
    expect(atsBJobState(variant({ isPublic }), { listedOpen: true })).toBe('closed');
  });

  it('reads an absent isPublic (the customer never published it) as not published', () => {
    expect(atsBJobState(variant({}, ['isPublic']), { listedOpen: true })).toBe('closed');
  });

  it.each([true, 1, '1', 'true'])('reads isOpen %p as open', (isOpen) => {
    expect(atsBJobState(variant({ isOpen }), { listedOpen: false })).toBe('live');
  });

  it.each([false, 0, '0', 'false'])('reads isOpen %p as closed', (isOpen) => {
    expect(atsBJobState(variant({ isOpen }), { listedOpen: true })).toBe('closed');
  });

  it.each([true, 1, '1', 'true'])(
    'reads isDeleted %p as deleted: closed even when open and public',
    (isDeleted) => {
      expect(atsBJobState(variant({ isDeleted }), { listedOpen: true })).toBe('closed');
    },
  );

  it.each([false, 0, '0', 'false', null])('reads isDeleted %p as not deleted', (isDeleted) => {
    expect(atsBJobState(variant({ isDeleted }), { listedOpen: false })).toBe('live');
  });

  it('reads an absent isDeleted as not deleted', () => {
    expect(atsBJobState(variant({}, ['isDeleted']), { listedOpen: false })).toBe('live');
  });

  it('trusts an open-jobs listing for an absent isOpen, but decides nothing on it in a changes-only one', () => {
    expect(atsBJobState(variant({ isOpen: null }), { listedOpen: true })).toBe('live');
    expect(atsBJobState(variant({}, ['isOpen']), { listedOpen: false })).toBe('unknown');
  });
});

describe('ATS-B listing page', () => {
  const jobs = [
    vendorJob,
    variant({ id: 4712, isOpen: false, status: 'Closed' }),
    variant({ id: '4713', isDeleted: true }),
    variant({ id: 4714, isPublic: 0 }),
    variant({ id: 4715 }, ['isOpen']),
    variant({ id: null }),
  ];

  it('publishes the live jobs and names the closed, deleted and unpublished ones, ids as strings', () => {
    const page = atsBPage(jobs, { listedOpen: false, now: NOW });
    expect(page.read).toBe(6);
    expect(page.vacancies.map((v) => v.externalId)).toEqual(['4711']);
    expect(page.closed).toEqual(['4712', '4713', '4714']);
  });

  it('in an open-jobs listing also closes what it sees unpublished', () => {
    const page = atsBPage(
      [vendorJob, variant({ id: 4714, isPublic: 0 }), variant({ id: 4715 }, ['isOpen'])],
      {
        listedOpen: true,
        now: NOW,
      },
    );
    expect(page.vacancies.map((v) => v.externalId)).toEqual(['4711', '4715']);
    expect(page.closed).toEqual(['4714']);
  });
});

describe(AtsBVacancySource.name, () => {
  const connector = { id: 'c1', type: 'ats-b' } as ConnectorSnapshot;

  function sourceOver(pages: number[][], byId: Map<number, AtsBJobOrder>) {
    const asked: AtsBJobOrderIdPagesOptions[] = [];
    const fieldsAsked: (readonly string[])[] = [];
    const client = {
      async *jobOrderIdPages(options: AtsBJobOrderIdPagesOptions) {
        asked.push(options);
        yield* pages;
      },
      async getJobOrders(ids: readonly number[], fields: readonly string[]) {
        fieldsAsked.push(fields);
        return ids.map((id) => byId.get(id)).filter((j): j is AtsBJobOrder => j !== undefined);
      },
    };
    const factory = { client: () => client } as unknown as VacancyPartDeps<AtsBClient>;
    return { source: new AtsBVacancySource(factory), asked, fieldsAsked };
  }

  async function collect(gen: AsyncGenerator<SourcePage>): Promise<SourcePage[]> {
    const out: SourcePage[] = [];
    for await (const page of gen) out.push(page);
    return out;
  }

  const jobs = new Map<number, AtsBJobOrder>([
    [1, variant({ id: 1 })],
    [2, variant({ id: 2, isOpen: false, status: 'Closed' })],
    [3, variant({ id: 3, isDeleted: true })],
    [4, variant({ id: 4, title: 'Retitled' })],
  ]);

  it('asks a changes-only listing for every job changed since the anchor, whatever its state', async () => {
    const since = new Date(MODIFIED);
    const { source, asked, fieldsAsked } = sourceOver([[1, 2, 3, 4]], jobs);
    const pages = await collect(
      source.listLive(connector, { since, after: 0, openStatuses: [], now: NOW }, { priority: 'sync' }),
    );
    expect(asked).toEqual([{ pageSize: 500, afterId: 0, modifiedSince: since, state: 'any' }]);
    expect(fieldsAsked[0]).toEqual(ATS_B_JOB_FIELDS);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ after: 4, read: 4, closed: ['2', '3'] });
    expect(pages[0]?.vacancies.map((v) => v.externalId)).toEqual(['1', '4']);
  });

  it('asks a full listing for open, not deleted jobs only', async () => {
    const { source, asked } = sourceOver([[1, 4]], jobs);
    const pages = await collect(
      source.listLive(connector, { after: 7, openStatuses: [], now: NOW }, { priority: 'sync' }),
    );
    expect(asked).toEqual([{ pageSize: 500, afterId: 7 }]);
    expect(pages[0]).toMatchObject({ after: 4, read: 2, closed: [] });
  });

  it('reads at most maxPages keyset pages, then refuses the next with RUN_PAGE_LIMIT before reading it', async () => {
    const { source, fieldsAsked } = sourceOver([[1], [2], [3], [4]], jobs);
    const read: SourcePage[] = [];
    const listing = source.listLive(
      connector,
      { after: 0, openStatuses: [], now: NOW, maxPages: 2 },
      { priority: 'sync' },
    );
    await expect(
      (async () => {
        for await (const page of listing) read.push(page);
      })(),
    ).rejects.toMatchObject({ name: 'SourceRefusedError', code: 'RUN_PAGE_LIMIT' });
    expect(read.map((p) => p.after)).toEqual([1, 2]);
    expect(fieldsAsked).toHaveLength(2); // the third page's jobs were never fetched
  });

  it('asks for the sub-fields of the to-one associations it reads (ATS-B sends only their id otherwise)', () => {
    expect(ATS_B_JOB_FIELDS).toContain('clientCorporation(id,name)');
    expect(ATS_B_JOB_FIELDS).toContain('clientContact(id,firstName,lastName,email,phone)');
    expect(ATS_B_JOB_FIELDS).not.toContain('clientCorporation');
  });
});

describe('ATS-B published vacancy, one representation at a time', () => {
  const base = publish(vendorJob)!;

  it('maps the vendor shape with the default mapping', () => {
    expect(base).toMatchObject({
      externalId: '4711',
      title: 'Welder',
      location: 'Boston',
      description: '<p>Weld <b>things</b> &amp; more</p>',
      requirements: 'MIG, TIG',
      status: 'Accepting Candidates',
      fields: { employmentType: 'Permanent', companyName: 'Acme Ltd' },
      company: { name: 'Acme Ltd', links: {} },
      contact: { externalId: '31', name: 'Ann Lee', email: 'ann@acme.example' },
      updatedAt: new Date(MODIFIED).toISOString(),
    });
  });

  it.each<[string, Record<string, unknown>, readonly string[]]>([
    ['id as a numeric string', { id: '4711' }, []],
    ['isPublic as true', { isPublic: true }, []],
    ['isPublic as "1"', { isPublic: '1' }, []],
    ['isOpen as 1', { isOpen: 1 }, []],
    ['isOpen as "true"', { isOpen: 'true' }, []],
    ['isDeleted as 0', { isDeleted: 0 }, []],
    ['isDeleted absent', {}, ['isDeleted']],
    ['dateLastModified as a numeric string', { dateLastModified: String(MODIFIED) }, []],
    ['dateAdded absent', {}, ['dateAdded']],
    ['countryID as a string', { address: { ...vendorJob.address, countryID: '1' } }, []],
    [
      'address2 absent instead of null',
      { address: { address1: '1 Road', city: 'Boston', state: 'MA', zip: '02108', countryID: 1 } },
      [],
    ],
    [
      'contact id as a string, phone absent',
      { clientContact: { id: '31', firstName: 'Ann', lastName: 'Lee', email: 'ann@acme.example' } },
      [],
    ],
    ['company id as a string', { clientCorporation: { id: '9', name: 'Acme Ltd' } }, []],
    ['text with surrounding white space', { title: '  Welder\n', status: ' Accepting Candidates ' }, []],
    ['skillList as a list (the vendor type Strings)', { skillList: ['MIG', 'TIG'] }, []],
    ['unknown extra fields', { customText1: 'x', _score: 1.5, correlatedCustomInt1: 3 }, []],
  ])('publishes the same content with %s', (_name, overrides, omit) => {
    const upsert = publish(variant(overrides, omit))!;
    expect(upsert.contentHash).toBe(base.contentHash);
    expect(upsert).toEqual(base);
  });

  it.each<[string, Record<string, unknown>, readonly string[]]>([
    ['null', { employmentType: null, clientContact: null }, []],
    ['absent', {}, ['employmentType', 'clientContact']],
    ['empty text', { employmentType: '   ', clientContact: null }, []],
  ])('reads an empty optional field given as %s as absent', (_name, overrides, omit) => {
    const upsert = publish(variant(overrides, omit))!;
    expect(upsert.fields['employmentType']).toBe('');
    expect(upsert.contact).toBeUndefined();
  });

  it('keeps HTML in the description as the ATS wrote it, and never takes the internal description', () => {
    const html = '<div style="x"><h2>Nurse &mdash; nights</h2><script>alert(1)</script></div>';
    const upsert = publish(variant({ publicDescription: html }))!;
    expect(upsert.description).toBe(html);
    expect(JSON.stringify(upsert)).not.toContain('internal notes');
  });

  it('falls back to the run time when the modification date is unreadable', () => {
    expect(toAtsBSourceVacancy(variant({ dateLastModified: 'yesterday' }), NOW).updatedAt).toBe(
      NOW.toISOString(),
    );
  });
});

/* ------------------------------------------------------------------------------------------------------ */
/* Property-based: thousands of vendor-shaped JobOrders in every representation real instances use.       */

interface JobModel {
  id: number;
  title?: string;
  city?: string;
  countryID?: number;
  publicDescription?: string;
  skillList?: string;
  employmentType?: string;
  status?: string;
  isOpen: boolean;
  isPublic: 0 | 1;
  isDeleted: boolean;
  dateLastModified: number;
  company?: { id: number; name?: string };
  contact?: { id: number; firstName?: string; lastName?: string; email?: string };
}

const ABSENT = Symbol('absent');
type Encoded = unknown;

const plainText = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 30 })
  .map((s) => s.trim())
  .filter((s) => s !== '');
const htmlText = fc
  .tuple(
    fc.constantFrom('p', 'div', 'li', 'strong'),
    plainText,
    fc.constantFrom('&amp;', '&nbsp;', '&lt;x&gt;', ''),
  )
  .map(([tag, body, entity]) => `<${tag} class="a">${body}${entity}</${tag}><br/>`);
const text = fc.oneof(plainText, htmlText);
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const jobModel: fc.Arbitrary<JobModel> = fc.record(
  {
    id: fc.integer({ min: 1, max: 2_147_483_647 }),
    title: optional(text),
    city: optional(plainText),
    countryID: optional(fc.integer({ min: 1, max: 2400 })),
    publicDescription: optional(text),
    skillList: optional(plainText),
    employmentType: optional(plainText),
    status: optional(plainText),
    isOpen: fc.boolean(),
    isPublic: fc.constantFrom<0 | 1>(0, 1),
    isDeleted: fc.boolean(),
    dateLastModified: fc.integer({ min: 946_684_800_000, max: 4_102_444_800_000 }),
    company: optional(
      fc.record(
        { id: fc.integer({ min: 1, max: 1e9 }), name: optional(plainText) },
        { requiredKeys: ['id'] },
      ),
    ),
    contact: optional(
      fc.record(
        {
          id: fc.integer({ min: 1, max: 1e9 }),
          firstName: optional(plainText),
          lastName: optional(plainText),
          email: optional(plainText),
        },
        { requiredKeys: ['id'] },
      ),
    ),
  },
  { requiredKeys: ['id', 'isOpen', 'isPublic', 'isDeleted', 'dateLastModified'] },
);

const boolAs = (b: boolean): fc.Arbitrary<Encoded> =>
  fc.constantFrom<Encoded>(b, b ? 1 : 0, b ? '1' : '0', b ? 'true' : 'false', b ? 'True' : 'FALSE');
const intAs = (n: number): fc.Arbitrary<Encoded> => fc.constantFrom<Encoded>(n, String(n), ` ${n} `);
const emptyAs: fc.Arbitrary<Encoded> = fc.constantFrom<Encoded>(ABSENT, null, '', '   ');
const textAs = (t: string | undefined): fc.Arbitrary<Encoded> =>
  t === undefined ? emptyAs : fc.constantFrom<Encoded>(t, `  ${t}\n`);
const junk = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 8 }).map((k) => `custom_${k}`),
  fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
  { maxKeys: 3 },
);

const put = (target: Record<string, unknown>, key: string, value: Encoded): void => {
  if (value !== ABSENT) target[key] = value;
};

/** One wire representation of a model; `strict` is the vendor's own (numbers, booleans, isPublic 1/0, null). */
function encodings(m: JobModel): fc.Arbitrary<{ strict: AtsBJobOrder; loose: AtsBJobOrder }> {
  const nullable = <T>(v: T | undefined) => (v === undefined ? null : v);
  const strict: Record<string, unknown> = {
    id: m.id,
    title: nullable(m.title),
    address:
      m.city === undefined && m.countryID === undefined
        ? null
        : { city: nullable(m.city), countryID: nullable(m.countryID) },
    publicDescription: nullable(m.publicDescription),
    skillList: nullable(m.skillList),
    employmentType: nullable(m.employmentType),
    status: nullable(m.status),
    isOpen: m.isOpen,
    isPublic: m.isPublic,
    isDeleted: m.isDeleted,
    dateLastModified: m.dateLastModified,
    clientCorporation: m.company ? { id: m.company.id, name: nullable(m.company.name) } : null,
    clientContact: m.contact
      ? {
          id: m.contact.id,
          firstName: nullable(m.contact.firstName),
          lastName: nullable(m.contact.lastName),
          email: nullable(m.contact.email),
        }
      : null,
  };
  return fc
    .record({
      id: intAs(m.id),
      title: textAs(m.title),
      city: textAs(m.city),
      countryID: m.countryID === undefined ? emptyAs : intAs(m.countryID),
      addressAbsent: fc.constantFrom<Encoded>(ABSENT, null),
      publicDescription: textAs(m.publicDescription),
      skillList:
        m.skillList === undefined
          ? emptyAs
          : fc.constantFrom<Encoded>(m.skillList, [m.skillList], ` ${m.skillList}`),
      employmentType: textAs(m.employmentType),
      status: textAs(m.status),
      isOpen: boolAs(m.isOpen),
      isPublic:
        m.isPublic === 1
          ? boolAs(true)
          : fc.oneof(boolAs(false), fc.constant<Encoded>(null), fc.constant<Encoded>(ABSENT)),
      isDeleted: m.isDeleted ? boolAs(true) : fc.oneof(boolAs(false), fc.constantFrom<Encoded>(null, ABSENT)),
      date: fc.constantFrom<Encoded>(m.dateLastModified, String(m.dateLastModified)),
      companyId: m.company ? intAs(m.company.id) : fc.constant<Encoded>(ABSENT),
      companyName: textAs(m.company?.name),
      contactEmpty: fc.constantFrom<Encoded>(ABSENT, null),
      contactId: m.contact ? intAs(m.contact.id) : fc.constant<Encoded>(ABSENT),
      firstName: textAs(m.contact?.firstName),
      lastName: textAs(m.contact?.lastName),
      email: textAs(m.contact?.email),
      extra: junk,
    })
    .map((e) => {
      const loose: Record<string, unknown> = { ...e.extra };
      put(loose, 'id', e.id);
      put(loose, 'title', e.title);
      if (m.city === undefined && m.countryID === undefined) put(loose, 'address', e.addressAbsent);
      else {
        const address: Record<string, unknown> = {};
        put(address, 'city', e.city);
        put(address, 'countryID', e.countryID);
        loose['address'] = address;
      }
      put(loose, 'publicDescription', e.publicDescription);
      put(loose, 'skillList', e.skillList);
      put(loose, 'employmentType', e.employmentType);
      put(loose, 'status', e.status);
      put(loose, 'isOpen', e.isOpen);
      put(loose, 'isPublic', e.isPublic);
      put(loose, 'isDeleted', e.isDeleted);
      put(loose, 'dateLastModified', e.date);
      if (m.company) {
        const company: Record<string, unknown> = {};
        put(company, 'id', e.companyId);
        put(company, 'name', e.companyName);
        loose['clientCorporation'] = company;
      }
      if (m.contact) {
        const contact: Record<string, unknown> = {};
        put(contact, 'id', e.contactId);
        put(contact, 'firstName', e.firstName);
        put(contact, 'lastName', e.lastName);
        put(contact, 'email', e.email);
        loose['clientContact'] = contact;
      } else put(loose, 'clientContact', e.contactEmpty);
      return { strict: strict as AtsBJobOrder, loose: loose as AtsBJobOrder };
    });
}

const cases = jobModel.chain((model) => encodings(model).map((wire) => ({ model, ...wire })));
const RUNS = 3_000;

describe('ATS-B mapper, property-based', () => {
  it('decides liveness from the fields alone, whatever their representation', () => {
    fc.assert(
      fc.property(cases, ({ model, loose }) => {
        const live = model.isOpen && model.isPublic === 1 && !model.isDeleted;
        const page = atsBPage([loose], { listedOpen: false, now: NOW });
        expect(page.read).toBe(1);
        expect(page.vacancies.map((v) => v.externalId)).toEqual(live ? [String(model.id)] : []);
        expect(page.closed).toEqual(live ? [] : [String(model.id)]);
      }),
      { numRuns: RUNS },
    );
  });

  it('publishes the same vacancy from any representation as from the vendor one, with the model values', () => {
    const mapping = defaultJobMapping('ats-b');
    fc.assert(
      fc.property(cases, ({ model, strict, loose }) => {
        const build = (job: AtsBJobOrder) =>
          buildVacancyUpsert('c1', 'ats-b', mapping, toAtsBSourceVacancy(job, NOW));
        const fromLoose = build(loose);
        expect(fromLoose).toEqual(build(strict));
        expect(fromLoose).toMatchObject({
          externalId: String(model.id),
          title: model.title ?? '',
          location: model.city ?? '',
          description: model.publicDescription ?? '',
          requirements: model.skillList ?? '',
          status: model.status ?? '',
          fields: { employmentType: model.employmentType ?? '', companyName: model.company?.name ?? '' },
          updatedAt: new Date(model.dateLastModified).toISOString(),
        });
        expect(fromLoose?.company).toEqual(
          model.company?.name ? { name: model.company.name, links: {} } : undefined,
        );
        const name = [model.contact?.firstName, model.contact?.lastName].filter(Boolean).join(' ');
        expect(fromLoose?.contact).toEqual(
          model.contact
            ? {
                externalId: String(model.contact.id),
                ...(name ? { name } : {}),
                ...(model.contact.email ? { email: model.contact.email } : {}),
              }
            : undefined,
        );
      }),
      { numRuns: RUNS },
    );
  });
});

// The mapping's list of readable paths and the fields the source asks for are two lists on purpose (what
// an admin may map vs what a call requests); this keeps them from drifting apart.
describe('ATS-B fields asked for', () => {
  it('cover every path a job mapping may read', () => {
    const asked = new Map<string, string[] | 'all'>();
    for (const field of ATS_B_JOB_ORDER_FIELDS) {
      const [, root, subs] = /^(\w+)(?:\(([\w,]+)\))?$/.exec(field) ?? [];
      asked.set(root, subs ? subs.split(',') : 'all');
    }
    const missing = [...atsRegistry.get('ats-b').mapping.sourcePaths].filter((path) => {
      const [root, sub] = path.split('.');
      const fields = asked.get(root);
      return fields === undefined || (sub !== undefined && fields !== 'all' && !fields.includes(sub));
    });
    expect(missing).toEqual([]);
  });
});
