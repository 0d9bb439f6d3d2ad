import { FieldHasher, type ListingOptions, type SourcePage } from '@connector/ats-core';
import { validateJobMapping } from '@connector/job-mapping';
import { twKeysAdapter } from './tw-keys.adapter';
import type { TwKeysClient } from './tw-keys.client';

const connector = {
  id: 'c1',
  accountId: 'a1',
  type: 'tw-keys',
  status: 'connected',
  config: { baseUrl: 'https://keys.example', clientId: 'x' },
  options: {},
} as never;
const listing: ListingOptions = { after: 0, openStatuses: [], now: new Date('2026-11-29T00:00:00Z') };

/** A client answering `pages` in turn, recording the `after` it was asked for. */
function clientWith(pages: Array<{ jobs: Record<string, unknown>[]; hasMore: boolean }>) {
  const asked: number[] = [];
  const client = {
    jobs: async (after: number) => {
      asked.push(after);
      return pages.shift() ?? { jobs: [], hasMore: false };
    },
  } as unknown as TwKeysClient;
  return { client, asked };
}

describe('the Keys vendor adapter', () => {
  it("starts a connector with a mapping its own fields satisfy, and no other ATS's", () => {
    expect(validateJobMapping(twKeysAdapter.mapping, twKeysAdapter.mapping.defaults)).toEqual([]);
    expect(
      validateJobMapping(twKeysAdapter.mapping, {
        fields: { ...twKeysAdapter.mapping.defaults.fields, title: { from: 'Title' } },
      }),
    ).toContain('fields.title.from: unknown source path "Title" for tw-keys');
  });

  it('reads keyset pages after the last id: open and listed jobs live, the others closed, read tolerantly', async () => {
    const { client, asked } = clientWith([
      {
        jobs: [
          {
            id: 7,
            headline: ' Welder ',
            city: 'Leeds',
            state: 'open',
            listed: true,
            modified: '2026-11-01T09:00:00Z',
            extra: 1,
          },
          { id: '8', headline: 'Cook', state: 'open', listed: false },
          { id: '9', headline: 'Cook', state: 'filled', listed: true },
        ],
        hasMore: true,
      },
      { jobs: [{ id: 12, headline: 'Driver', state: 'open', listed: 'true' }], hasMore: false },
    ]);
    const source = twKeysAdapter.vacancySource({ client: () => client });
    const pages: SourcePage[] = [];
    for await (const page of source.listLive(connector, listing, { priority: 'sync' })) pages.push(page);
    expect(asked).toEqual([0, 9]);
    expect(pages.map((p) => [p.after, p.vacancies.map((v) => v.externalId), p.closed])).toEqual([
      [9, ['7'], ['8', '9']],
      [12, ['12'], []],
    ]);
    expect(pages[0]?.vacancies[0]).toEqual({
      externalId: '7',
      record: { id: '7', headline: 'Welder', city: 'Leeds', state: 'open' },
      updatedAt: '2026-11-01T09:00:00.000Z',
    });
  });

  it('stops at the most pages a run reads', async () => {
    const page = { jobs: [{ id: 1, state: 'open' }], hasMore: true };
    const { client } = clientWith([page, { ...page, jobs: [{ id: 2, state: 'open' }] }, page]);
    const source = twKeysAdapter.vacancySource({ client: () => client });
    const read = async () => {
      for await (const _page of source.listLive(
        connector,
        { ...listing, maxPages: 2 },
        { priority: 'sync' },
      )) {
        /* reading */
      }
    };
    await expect(read()).rejects.toMatchObject({ code: 'RUN_PAGE_LIMIT' });
  });

  it('writes a person as the vendor takes it, patches only what changed, and finds the newest by email', async () => {
    const created: object[] = [];
    const patched: object[] = [];
    const client = {
      unsureWriteSettleMs: 1,
      createPerson: async (person: object) => (created.push(person), 501),
      patchPerson: async (id: string, fields: object) => patched.push({ id, fields }),
      peopleByEmail: async () => [{ id: 3 }, { id: 11 }],
    } as unknown as TwKeysClient;
    const sink = twKeysAdapter.candidateSink({ client, hasher: new FieldHasher('k') });
    const ada = {
      candidateId: 'c',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      workHistory: [{ employer: 'E', title: 'T', startDate: '2020-01', endDate: '2020-09', current: true }],
      education: [{ institution: 'U' }],
    };
    const result = await sink.create(ada);
    expect(created).toEqual([
      {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        phone: null,
        mobile: null,
        jobs: [{ employer: 'E', title: 'T', from: '2020-01', to: null }],
        schools: [{ name: 'U', degree: null, subject: null }],
      },
    ]);
    expect(result).toMatchObject({ externalId: '501', complete: true });
    const sent = await sink.update('501', { ...ada, mobile: '+1 2' }, result.sent, async () => undefined);
    expect(patched).toEqual([{ id: '501', fields: { mobile: '+1 2' } }]);
    await sink.update('501', { ...ada, mobile: '+1 2' }, sent, async () => undefined);
    expect(patched).toHaveLength(1);
    await expect(sink.findExisting({ email: 'ada@example.com' } as never)).resolves.toBe('11');
  });
});
