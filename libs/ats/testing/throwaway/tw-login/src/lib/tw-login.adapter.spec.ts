import { outboundGuard } from '@connector/ats-http';
import { FieldHasher, type ListingOptions, type SourcePage } from '@connector/ats-core';
import { validateJobMapping } from '@connector/job-mapping';
import { twLoginAdapter } from './tw-login.adapter';
import { requestTwLoginTokens, type TwLoginClient } from './tw-login.client';

const connector = { id: 'c1', accountId: 'a1', type: 'tw-login', config: {}, options: {} } as never;
const listing: ListingOptions = { after: 0, openStatuses: [], now: new Date('2026-11-29T00:00:00Z') };
const oauthClient = {
  tokenUrl: 'https://login.example/oauth/token',
  clientId: 'tw-platform',
  clientSecret: 's3cret',
  redirectUri: 'https://registry.example/oauth/tw-login/callback',
};

describe('the Login vendor adapter', () => {
  it('starts a connector with a mapping its own fields satisfy', () => {
    expect(validateJobMapping(twLoginAdapter.mapping, twLoginAdapter.mapping.defaults)).toEqual([]);
  });

  it('exchanges a code with HTTP Basic client authentication and the PKCE verifier, once, even on a 503', async () => {
    const calls: RequestInit[] = [];
    const fetch = async (_url: unknown, init?: RequestInit) => {
      calls.push(init ?? {});
      return calls.length === 1
        ? new Response('{}', { status: 503 })
        : new Response('{"access_token":"a","refresh_token":"r","expires_in":900}', { status: 200 });
    };
    const options = { guard: outboundGuard(), fetch: fetch as typeof globalThis.fetch };
    await expect(
      requestTwLoginTokens(oauthClient, { code: 'c0de', verifier: 'v' }, options),
    ).rejects.toMatchObject({
      kind: 'transient',
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers).toMatchObject({
      Authorization: `Basic ${Buffer.from('tw-platform:s3cret').toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expect(String(calls[0]?.body)).toBe(
      'grant_type=authorization_code&code=c0de&redirect_uri=https%3A%2F%2Fregistry.example%2Foauth%2Ftw-login%2Fcallback&code_verifier=v',
    );
    await expect(requestTwLoginTokens(oauthClient, { refreshToken: 'r0' }, options)).resolves.toEqual({
      accessToken: 'a',
      refreshToken: 'r',
      expiresInSeconds: 900,
    });
  });

  it('reads numbered pages until the last: open public openings live, the others closed', async () => {
    const asked: number[] = [];
    const client = {
      openings: async (page: number) => {
        asked.push(page);
        return page === 1
          ? {
              items: [
                { key: 'OP-1', name: 'Nurse', open: true, visibility: 'public', changed: 1_790_000_000 },
                { key: 'OP-4', name: 'Matron', open: true, visibility: 'internal' },
                { key: 'OP-2', open: false },
              ],
              totalPages: 2,
            }
          : { items: [{ key: 'OP-3', name: 'Porter', open: true, visibility: 'public' }], totalPages: 2 };
      },
    } as unknown as TwLoginClient;
    const source = twLoginAdapter.vacancySource({ client: () => client });
    const pages: SourcePage[] = [];
    for await (const page of source.listLive(connector, listing, { priority: 'sync' })) pages.push(page);
    expect(asked).toEqual([1, 2]);
    expect(pages.map((p) => [p.after, p.vacancies.map((v) => v.externalId), p.closed])).toEqual([
      [1, ['OP-1'], ['OP-4', 'OP-2']],
      [2, ['OP-3'], []],
    ]);
    expect(pages[0]?.vacancies[0]?.updatedAt).toBe(new Date(1_790_000_000_000).toISOString());
  });

  it('replaces an applicant whole, and only when something changed', async () => {
    const replaced: object[] = [];
    const client = {
      unsureWriteSettleMs: 1,
      createApplicant: async () => 'AP-4',
      replaceApplicant: async (key: string, applicant: object) => replaced.push({ key, applicant }),
      applicantsByEmail: async () => ['AP-9', 'AP-10', 'AP-2'],
    } as unknown as TwLoginClient;
    const sink = twLoginAdapter.candidateSink({ client, hasher: new FieldHasher('k') });
    const grace = {
      candidateId: 'c',
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'g@example.com',
      phone: '1',
    };
    const { sent } = await sink.create(grace);
    await sink.update('AP-4', grace, sent, async () => undefined);
    expect(replaced).toEqual([]);
    await sink.update('AP-4', { ...grace, mobile: '2' }, sent, async () => undefined);
    expect(replaced).toEqual([
      {
        key: 'AP-4',
        applicant: {
          name: { first: 'Grace', last: 'Hopper' },
          emails: ['g@example.com'],
          phones: { home: '1', mobile: '2' },
          career: [],
          studies: [],
        },
      },
    ]);
    await expect(sink.findExisting(grace)).resolves.toBe('AP-10');
  });

  it('hands a worker the API address learnt at the login, with the token', () => {
    const issuer = twLoginAdapter.credentialIssuer({
      guard: outboundGuard(),
      quota: {} as never,
      logger: { warn: () => undefined },
      settings: {
        TW_LOGIN_URL: 'https://login.example',
        TW_LOGIN_CLIENT_ID: 'x',
        TW_LOGIN_CLIENT_SECRET: 'y',
      },
    });
    const stored = { accessToken: 't', accessTokenExpiresAt: '', restUrl: 'https://login.example/api' };
    const access = issuer.toAtsAccess({ baseUrl: null }, stored, new Date(0));
    expect(access).toEqual({
      type: 'tw-login',
      apiUrl: 'https://login.example/api',
      accessToken: 't',
      expiresAt: new Date(0).toISOString(),
    });
    expect(twLoginAdapter.callTokenOf(access)).toBe('t');
    expect(() => twLoginAdapter.accessOf({ ...access, type: 'tw-keys' })).toThrow(/not an tw-login access/);
  });
});
