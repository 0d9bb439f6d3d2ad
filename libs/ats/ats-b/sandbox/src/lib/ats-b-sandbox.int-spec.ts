import { createHash } from 'node:crypto';
import { eventually } from '@connector/testing';
import { driveLoginForm } from '../test/login-form.driver';
import { startAtsBSandbox, type RunningAtsBSandbox, type TokenResponse } from '../index';

const REDIRECT = 'http://127.0.0.1:9999/oauth/ats-b/callback';
const CLIENT = { client_id: 'platform-client', client_secret: 'platform-secret' };

interface Connected {
  tokens: TokenResponse;
  restUrl: string;
  bhRestToken: string;
}

async function json<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

function authorizeUrl(
  sb: RunningAtsBSandbox,
  state = 'st-1',
  redirect = REDIRECT,
  clientId = CLIENT.client_id,
): string {
  const q = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirect,
    state,
  });
  return `${sb.oauthUrl}/authorize?${q}`;
}

async function codeFor(sb: RunningAtsBSandbox): Promise<string> {
  const location = new URL(
    await driveLoginForm(authorizeUrl(sb), { username: 'recruiter', password: 'recruiter-pass' }),
  );
  return location.searchParams.get('code')!;
}

async function token(sb: RunningAtsBSandbox, params: Record<string, string>): Promise<Response> {
  return fetch(`${sb.oauthUrl}/token?${new URLSearchParams({ ...CLIENT, ...params })}`, { method: 'POST' });
}

async function connect(sb: RunningAtsBSandbox): Promise<Connected> {
  const code = await codeFor(sb);
  const tokens = await json<TokenResponse>(
    await token(sb, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT }),
  );
  const login = await json<{ BhRestToken: string; restUrl: string }>(
    await fetch(
      `${sb.restLoginUrl}/login?version=*&access_token=${encodeURIComponent(tokens.access_token)}`,
      { method: 'POST' },
    ),
  );
  return { tokens, restUrl: login.restUrl, bhRestToken: login.BhRestToken };
}

function api(c: Connected) {
  return (path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> => {
    const headers: Record<string, string> = {
      BhRestToken: c.bhRestToken,
      ...(init.headers as Record<string, string>),
    };
    let body = init.body;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    return fetch(c.restUrl + path, { ...init, headers, body });
  };
}

describe('ATS-B sandbox over HTTP', () => {
  let sb: RunningAtsBSandbox;

  beforeAll(async () => {
    sb = await startAtsBSandbox({ port: 0, seed: { jobs: 1234, seed: 7 } });
  });
  afterAll(async () => {
    await sb.close();
  });
  beforeEach(() => {
    sb.state.reset();
  });

  describe('login', () => {
    it('runs the whole flow through the HTML form: authorize → form → code → token → login → ping', async () => {
      const info = await json(await fetch(`${sb.restLoginUrl}/loginInfo?username=recruiter`));
      expect(info).toEqual({ oauthUrl: sb.oauthUrl, restUrl: sb.restLoginUrl });

      const page = await fetch(authorizeUrl(sb, 'csrf-123'));
      const html = await page.text();
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      expect(html).toMatch(/<label for="username">/);
      expect(html).toMatch(/<label for="password">/);
      expect(html).toMatch(/<button type="submit"/);
      expect(html).toContain('name="state" value="csrf-123"');

      const location = new URL(
        await driveLoginForm(authorizeUrl(sb, 'csrf-123'), {
          username: 'recruiter',
          password: 'recruiter-pass',
        }),
      );
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(location.searchParams.get('state')).toBe('csrf-123');
      const code = location.searchParams.get('code')!;

      const tokenRes = await token(sb, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
      expect(tokenRes.status).toBe(200);
      const tokens = await json<TokenResponse>(tokenRes);
      expect(tokens).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 600,
        refresh_token: expect.any(String),
      });

      const loginRes = await fetch(`${sb.restLoginUrl}/login?version=*&access_token=${tokens.access_token}`, {
        method: 'POST',
      });
      const login = await json<{ BhRestToken: string; restUrl: string }>(loginRes);
      expect(login.restUrl).toMatch(new RegExp(`^${sb.url}/rest-services/[a-z0-9]+/$`));

      const before = Date.now();
      const ping = await fetch(`${login.restUrl}ping`, { headers: { BhRestToken: login.BhRestToken } });
      expect(ping.status).toBe(200);
      expect((await json<{ sessionExpires: number }>(ping)).sessionExpires).toBeGreaterThan(before + 590_000);

      // Query parameter and cookie carry the token too.
      expect((await fetch(`${login.restUrl}ping?BhRestToken=${login.BhRestToken}`)).status).toBe(200);
      expect(
        (await fetch(`${login.restUrl}ping`, { headers: { cookie: `BhRestToken=${login.BhRestToken}` } }))
          .status,
      ).toBe(200);

      expect(sb.state.callCounts()).toMatchObject({
        'GET /oauth/authorize': 2,
        'POST /oauth/authorize': 1,
        'POST /oauth/token authorization_code': 1,
        'POST /rest-services/login': 1,
        'GET ping': 3,
      });
    });

    it('PKCE: the login form carries the S256 challenge, and the code needs its verifier', async () => {
      const verifier = createHash('sha256').update('pkce-int-spec').digest('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const pkceCode = async () => {
        const url = new URL(authorizeUrl(sb, 'st-pkce'));
        url.searchParams.set('code_challenge', challenge);
        url.searchParams.set('code_challenge_method', 'S256');
        const back = new URL(
          await driveLoginForm(url.toString(), { username: 'recruiter', password: 'recruiter-pass' }),
        );
        expect(back.searchParams.get('state')).toBe('st-pkce');
        return back.searchParams.get('code')!;
      };
      const exchange = async (code: string, extra: Record<string, string> = {}) =>
        token(sb, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, ...extra });

      const missing = await exchange(await pkceCode());
      expect(missing.status).toBe(400);
      expect(await json(missing)).toMatchObject({ error: 'invalid_grant' });
      const wrong = await exchange(await pkceCode(), { code_verifier: `${verifier.slice(0, -1)}A` });
      expect(await json(wrong)).toMatchObject({ error: 'invalid_grant' });
      const right = await exchange(await pkceCode(), { code_verifier: verifier });
      expect(right.status).toBe(200);

      const unsupported = new URL(authorizeUrl(sb, 'st-x'));
      unsupported.searchParams.set('code_challenge', challenge);
      unsupported.searchParams.set('code_challenge_method', 'S512');
      // Refused before the login page, back to the client with the error (RFC 7636 §4.4.1).
      const answer = await fetch(unsupported, { redirect: 'manual' });
      expect(answer.status).toBe(302);
      const refused = new URL(answer.headers.get('location') ?? '');
      expect(refused.searchParams.get('error')).toBe('invalid_request');
    });

    it('shows the page again with an error on bad credentials, and never redirects to an unregistered address', async () => {
      const body = new URLSearchParams({
        client_id: CLIENT.client_id,
        redirect_uri: REDIRECT,
        state: 's',
        username: 'recruiter',
        password: 'nope',
      });
      const bad = await fetch(`${sb.oauthUrl}/authorize`, { method: 'POST', body, redirect: 'manual' });
      expect(bad.status).toBe(401);
      expect(await bad.text()).toMatch(/role="alert">Invalid username or password/);

      const unknownClient = await fetch(authorizeUrl(sb, 's', REDIRECT, 'someone-else'), {
        redirect: 'manual',
      });
      expect(unknownClient.status).toBe(400);
      expect(unknownClient.headers.get('location')).toBeNull();

      const evil = await fetch(authorizeUrl(sb, 's', 'https://evil.example/cb'), { redirect: 'manual' });
      expect(evil.status).toBe(400);
      expect(evil.headers.get('location')).toBeNull();
    });

    it('accepts non-interactive username/password/action=Login on authorize', async () => {
      const url = `${authorizeUrl(sb)}&username=recruiter&password=recruiter-pass&action=Login`;
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(new URL(res.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    });

    it('refuses a code used twice', async () => {
      const code = await codeFor(sb);
      expect(
        (await token(sb, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).status,
      ).toBe(200);
      const again = await token(sb, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
      expect(again.status).toBe(400);
      expect(await json(again)).toMatchObject({ error: 'invalid_grant' });
    });

    it('rotates refresh tokens; a refresh token used twice → invalid_grant', async () => {
      const { tokens } = await connect(sb);
      const first = await token(sb, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      expect(first.status).toBe(200);
      const rotated = await json<TokenResponse>(first);
      expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
      expect(rotated.access_token).not.toBe(tokens.access_token);

      const reused = await token(sb, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      expect(reused.status).toBe(400);
      expect(await json(reused)).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });

      // Form body is accepted as well as the query string.
      const viaForm = await fetch(`${sb.oauthUrl}/token`, {
        method: 'POST',
        body: new URLSearchParams({
          ...CLIENT,
          grant_type: 'refresh_token',
          refresh_token: rotated.refresh_token,
        }),
      });
      expect(viaForm.status).toBe(200);
      expect(sb.state.callCounts()['POST /oauth/token refresh_token']).toBe(3);
    });

    it('answers 401 invalid_client to a bad client secret', async () => {
      const res = await token(sb, {
        grant_type: 'refresh_token',
        refresh_token: 'x',
        client_secret: 'wrong',
      });
      expect(res.status).toBe(401);
      expect(await json(res)).toMatchObject({ error: 'invalid_client' });
    });

    it('rejectNextRefresh (admin HTTP) → invalid_grant for the next refresh', async () => {
      const { tokens } = await connect(sb);
      await fetch(`${sb.url}/__sandbox/faults`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ rejectNextRefresh: true }),
      });
      const res = await token(sb, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ error: 'invalid_grant' });
    });

    it('refuses login with a bad access token', async () => {
      const res = await fetch(`${sb.restLoginUrl}/login?version=*&access_token=nope`, { method: 'POST' });
      expect(res.status).toBe(401);
      expect(await json(res)).toMatchObject({
        errorCode: 401,
        errorMessageKey: 'errors.authentication.invalidOAuthToken',
      });
    });
  });

  describe('sessions', () => {
    it('412 without a token; 401 invalidRestToken for a bad or expired one', async () => {
      const c = await connect(sb);
      const missing = await fetch(`${c.restUrl}ping`);
      expect(missing.status).toBe(412);

      const bad = await fetch(`${c.restUrl}ping`, { headers: { BhRestToken: 'nope' } });
      expect(bad.status).toBe(401);
      sb.state.expireSessions();
      const expired = await api(c)('entity/JobOrder/1?fields=id');
      expect(expired.status).toBe(401);
      expect(await json(expired)).toEqual({
        errorMessage: "Bad 'BhRestToken' or timed-out.",
        errorMessageKey: 'errors.authentication.invalidRestToken',
        errorCode: 401,
      });
    });

    it('a BhRestToken times out after sessionTtlSeconds of inactivity', async () => {
      const short = await startAtsBSandbox({ sessionTtlSeconds: 1, seed: { jobs: 3 } });
      try {
        const c = await connect(short);
        expect((await api(c)('ping')).status).toBe(200);
        await new Promise((r) => setTimeout(r, 1_200));
        const res = await api(c)('ping');
        expect(res.status).toBe(401);
        expect(await json(res)).toMatchObject({ errorMessageKey: 'errors.authentication.invalidRestToken' });
      } finally {
        await short.close();
      }
    });
  });

  describe('job orders', () => {
    it('pages over search/JobOrder returning every open, non-deleted id exactly once', async () => {
      const call = api(await connect(sb));
      const seen: number[] = [];
      let total = -1;
      for (let start = 0; total < 0 || start < total; start += 500) {
        const res = await call(
          `search/JobOrder?query=${encodeURIComponent('isOpen:1 AND isDeleted:0')}&fields=id&start=${start}&count=500&sort=id`,
        );
        const page = await json<{ total: number; start: number; count: number; data: { id: number }[] }>(res);
        expect(page.start).toBe(start);
        expect(page.count).toBe(page.data.length);
        total = page.total;
        seen.push(...page.data.map((d) => d.id));
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.length).toBe(total);
      const expected: number[] = [];
      for (let id = 1; id <= 1234; id++) {
        const job = sb.state.job(id)!;
        if (job.isOpen && !job.isDeleted) expected.push(id);
      }
      expect(seen).toEqual(expected);
      expect(total).toBeGreaterThan(900);
    });

    it('caps count at 500 and supports isPublic and an incremental dateLastModified range', async () => {
      const call = api(await connect(sb));
      const big = await json<{ count: number }>(
        await call('search/JobOrder?query=isDeleted:0&fields=id&count=1000'),
      );
      expect(big.count).toBe(500);

      const from = Date.now();
      const ids = (
        await json<{ data: { id: number }[] }>(
          await call('search/JobOrder?query=isOpen:1+AND+isDeleted:0+AND+isPublic:1&fields=id&count=3'),
        )
      ).data.map((d) => d.id);
      const patched = await fetch(`${sb.url}/__sandbox/jobs/${ids[0]}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Renamed' }),
      });
      expect(patched.status).toBe(200);
      const added = await json<{ id: number }>(
        await fetch(`${sb.url}/__sandbox/jobs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'Fresh' }),
        }),
      );
      const query = encodeURIComponent(`isOpen:1 AND isDeleted:0 AND dateLastModified:[${from} TO *]`);
      const changed = await json<{ total: number; data: { id: number; title: string }[] }>(
        await call(`search/JobOrder?query=${query}&fields=id,title&count=500`),
      );
      expect(changed.data).toEqual([
        { id: ids[0], title: 'Renamed' },
        { id: added.id, title: 'Fresh' },
      ]);
    });

    it('requires fields on entity/JobOrder; one id → object, several → array without unknown ids', async () => {
      const call = api(await connect(sb));
      const noFields = await call('entity/JobOrder/1');
      expect(noFields.status).toBe(400);
      expect(await json(noFields)).toMatchObject({ errorCode: 400 });

      const one = await json<{ data: Record<string, unknown> }>(
        await call(
          'entity/JobOrder/1?fields=id,title,address,publicDescription,description,skillList,employmentType,status,isOpen,isPublic,dateLastModified,clientCorporation,clientContact',
        ),
      );
      expect(one.data).toMatchObject({
        id: 1,
        title: expect.any(String),
        isOpen: expect.any(Boolean),
        dateLastModified: expect.any(Number),
      });
      // isPublic is an Integer at the vendor; a to-one association without sub-fields is its id only.
      expect([0, 1]).toContain(one.data['isPublic']);
      expect(one.data['clientCorporation']).toEqual({ id: expect.any(Number) });
      const withName = await json<{ data: Record<string, unknown> }>(
        await call('entity/JobOrder/1?fields=clientCorporation(id,name)'),
      );
      expect(withName.data['clientCorporation']).toEqual({
        id: expect.any(Number),
        name: expect.any(String),
      });

      const many = await json<{ data: { id: number }[] }>(
        await call('entity/JobOrder/3,999999,2?fields=id,clientContact(id,firstName)'),
      );
      expect(many.data.map((d) => d.id)).toEqual([3, 2]);

      const ids = Array.from({ length: 500 }, (_, i) => 1234 - i);
      const bulk = await json<{ data: { id: number }[] }>(
        await call(`entity/JobOrder/${ids.join(',')}?fields=id,title`),
      );
      expect(bulk.data.map((d) => d.id)).toEqual(ids);
      expect((await call('entity/JobOrder/999999?fields=id')).status).toBe(404);
      expect((await call('entity/JobOrder/1?fields=id,bogus')).status).toBe(400);
    });
  });

  describe('what a recruiter does to a job (/__sandbox)', () => {
    const admin = (path: string, method = 'POST', body?: object) =>
      fetch(`${sb.url}/__sandbox${path}`, {
        method,
        ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
      });

    it('closes, deletes, retitles and unpublishes, each bumping dateLastModified; a changes-only search sees them all', async () => {
      const call = api(await connect(sb));
      const open = (
        await json<{ data: { id: number }[] }>(
          await call('search/JobOrder?query=isOpen:1+AND+isDeleted:0+AND+isPublic:1&fields=id&count=4'),
        )
      ).data.map((d) => d.id);
      const [a, b, c, d] = open as [number, number, number, number];
      const from = Date.now();
      expect(await json(await admin(`/jobs/${a}/close`))).toMatchObject({
        id: a,
        isOpen: false,
        status: 'Closed',
      });
      expect(await json(await admin(`/jobs/${b}/delete`))).toMatchObject({ id: b, isDeleted: true });
      expect(await json(await admin(`/jobs/${c}`, 'PATCH', { title: 'Retitled' }))).toMatchObject({
        id: c,
        title: 'Retitled',
      });
      expect(await json(await admin(`/jobs/${d}/unpublish`))).toMatchObject({ id: d, isPublic: 0 });
      expect((await admin(`/jobs/${d}`, 'PATCH', { isPublic: true })).status).toBe(400);

      const changed = await json<{
        data: { id: number; isOpen: boolean; isDeleted: boolean; isPublic: number }[];
      }>(
        await call(
          `search/JobOrder?query=${encodeURIComponent(`dateLastModified:[${from} TO *]`)}&fields=id,isOpen,isDeleted,isPublic&count=10`,
        ),
      );
      expect(changed.data).toEqual([
        { id: a, isOpen: false, isDeleted: false, isPublic: 1 },
        { id: b, isOpen: true, isDeleted: true, isPublic: 1 },
        { id: c, isOpen: true, isDeleted: false, isPublic: 1 },
        { id: d, isOpen: true, isDeleted: false, isPublic: 0 },
      ]);
      const openOnly = await json<{ data: { id: number }[] }>(
        await call(
          `search/JobOrder?query=${encodeURIComponent(`isOpen:1 AND isDeleted:0 AND dateLastModified:[${from} TO *]`)}&fields=id`,
        ),
      );
      expect(openOnly.data.map((r) => r.id)).toEqual([c, d]);
      expect((await call('search/JobOrder?query=isPublic:true&fields=id')).status).toBe(400);
    });
  });

  describe('candidates', () => {
    it('creates, updates and reads a candidate with work history and education', async () => {
      const call = api(await connect(sb));
      const created = await call('entity/Candidate', {
        method: 'PUT',
        json: {
          firstName: 'Zoë',
          lastName: 'Østergaard',
          name: 'Zoë Østergaard',
          email: 'zoe@example.com',
          status: 'New Lead',
          address: { city: 'Malmö', countryID: 2360 },
        },
      });
      expect(created.status).toBe(200);
      const c = await json<{
        changedEntityType: string;
        changedEntityId: number;
        changeType: string;
        data: object;
      }>(created);
      expect(c).toMatchObject({
        changedEntityType: 'Candidate',
        changeType: 'INSERT',
        data: { name: 'Zoë Østergaard' },
      });
      const id = c.changedEntityId;

      const updated = await json(
        await call(`entity/Candidate/${id}`, { method: 'POST', json: { mobile: '+46 70 123' } }),
      );
      expect(updated).toEqual({
        changedEntityType: 'Candidate',
        changedEntityId: id,
        changeType: 'UPDATE',
        data: { mobile: '+46 70 123' },
      });

      const wh = await call('entity/CandidateWorkHistory', {
        method: 'PUT',
        json: {
          candidate: { id },
          companyName: 'Acme',
          title: 'Dev',
          startDate: Date.UTC(2019, 0, 1),
          endDate: null,
          comments: 'Did things',
        },
      });
      expect(await json(wh)).toMatchObject({
        changedEntityType: 'CandidateWorkHistory',
        changeType: 'INSERT',
      });
      const ed = await call('entity/CandidateEducation', {
        method: 'PUT',
        json: {
          candidate: { id },
          school: 'KTH',
          degree: 'MSc',
          major: 'CS',
          startDate: Date.UTC(2012, 8, 1),
          endDate: Date.UTC(2014, 5, 1),
        },
      });
      expect(ed.status).toBe(200);
      expect(
        (
          await call('entity/CandidateEducation', {
            method: 'PUT',
            json: { candidate: { id: 99999 }, school: 'X' },
          })
        ).status,
      ).toBe(400);

      const read = await json<{ data: Record<string, unknown> }>(
        await call(`entity/Candidate/${id}?fields=id,name,mobile,address`),
      );
      expect(read.data).toMatchObject({
        id,
        name: 'Zoë Østergaard',
        mobile: '+46 70 123',
        address: { city: 'Malmö', countryID: 2360 },
      });

      const admin = await json<{
        total: number;
        data: { workHistories: unknown[]; educations: unknown[] }[];
      }>(await fetch(`${sb.url}/__sandbox/candidates`));
      expect(admin.total).toBe(1);
      expect(admin.data[0]!.workHistories).toHaveLength(1);
      expect(admin.data[0]!.educations).toHaveLength(1);
    });

    it("lists a candidate's work history and education (to-many associations), paged like a query", async () => {
      const call = api(await connect(sb));
      const { changedEntityId: id } = await json<{ changedEntityId: number }>(
        await call('entity/Candidate', { method: 'PUT', json: { name: 'Many Jobs', status: 'New Lead' } }),
      );
      for (let i = 0; i < 25; i++) {
        await call('entity/CandidateWorkHistory', {
          method: 'PUT',
          json: { candidate: { id }, companyName: `Firm ${i}`, startDate: Date.UTC(2000 + i, 0, 1) },
        });
      }
      await call('entity/CandidateEducation', { method: 'PUT', json: { candidate: { id }, school: 'KTH' } });
      const fields = 'fields=id,companyName,title,startDate,endDate,comments';
      const page = await json<{ data: Record<string, unknown>[] }>(
        await call(`entity/Candidate/${id}/workHistories?${fields}`),
      );
      expect(page.data).toHaveLength(20);
      // Dates epoch ms; what was never set comes as null.
      expect(page.data[0]).toEqual({
        id: expect.any(Number),
        companyName: 'Firm 0',
        title: null,
        startDate: Date.UTC(2000, 0, 1),
        endDate: null,
        comments: null,
      });
      const rest = await json<{ data: Record<string, unknown>[] }>(
        await call(`entity/Candidate/${id}/workHistories?${fields}&start=20&count=500`),
      );
      expect(rest.data.map((r) => r['companyName'])).toEqual([
        'Firm 20',
        'Firm 21',
        'Firm 22',
        'Firm 23',
        'Firm 24',
      ]);
      expect(
        await json(
          await call(`entity/Candidate/${id}/educations?fields=id,school,degree,major,startDate,endDate`),
        ),
      ).toEqual({
        data: [
          {
            id: expect.any(Number),
            school: 'KTH',
            degree: null,
            major: null,
            startDate: null,
            endDate: null,
          },
        ],
      });
      expect((await call(`entity/Candidate/${id}/workHistories`)).status).toBe(400);
      expect((await call(`entity/Candidate/${id}/educations?fields=id,nope`)).status).toBe(400);
      expect((await call('entity/Candidate/999999/workHistories?fields=id')).status).toBe(404);
    });

    it('refuses unknown fields and missing required ones with messages', async () => {
      const call = api(await connect(sb));
      const res = await call('entity/Candidate', {
        method: 'PUT',
        json: { firstName: 'A', lastName: 'B', favouriteColour: 'blue' },
      });
      expect(res.status).toBe(400);
      const body = await json<{
        errorCode: number;
        messages: { propertyName: string; severity: string; type: string; detailMessage: string }[];
      }>(res);
      expect(body.errorCode).toBe(400);
      expect(body.messages.map((m) => m.propertyName).sort()).toEqual(['favouriteColour', 'name', 'status']);
      expect(sb.state.candidates()).toHaveLength(0);
      expect((await call('entity/Candidate/12345', { method: 'POST', json: { name: 'x' } })).status).toBe(
        404,
      );
    });

    it('counts duplicates (same email twice)', async () => {
      const call = api(await connect(sb));
      for (const email of ['dup@example.com', 'DUP@example.com', 'other@example.com']) {
        await call('entity/Candidate', { method: 'PUT', json: { name: 'D', status: 'New Lead', email } });
      }
      expect(sb.state.duplicates().byEmail).toBe(1);
      const admin = await json<{ duplicates: { byEmail: number } }>(
        await fetch(`${sb.url}/__sandbox/candidates`),
      );
      expect(admin.duplicates.byEmail).toBe(1);
    });
  });

  describe('files', () => {
    let call: ReturnType<typeof api>;
    let candidateId: number;
    beforeEach(async () => {
      call = api(await connect(sb));
      const c = await json<{ changedEntityId: number }>(
        await call('entity/Candidate', { method: 'PUT', json: { name: 'F', status: 'New Lead' } }),
      );
      candidateId = c.changedEntityId;
    });
    const upload = (json: Record<string, unknown>) =>
      call(`file/Candidate/${candidateId}`, { method: 'PUT', json });
    const pdf = Buffer.from('%PDF-1.4 hello');
    const good = {
      externalID: 'doc-1',
      fileContent: pdf.toString('base64'),
      fileType: 'SAMPLE',
      name: 'cv.pdf',
      contentType: 'application/pdf',
      description: 'CV',
      type: 'Resume',
    };

    it('stores a JSON upload with its sha256 and size, and lists it', async () => {
      const res = await upload(good);
      expect(res.status).toBe(200);
      const { fileId } = await json<{ fileId: number }>(res);
      const [file] = sb.state.files();
      expect(file).toMatchObject({
        id: fileId,
        candidateId,
        fileSize: pdf.length,
        sha256: createHash('sha256').update(pdf).digest('hex'),
        type: 'Resume',
      });
      const list = await json(
        await call(`entity/Candidate/${candidateId}/fileAttachments?fields=id,name,type,externalID`),
      );
      expect(list).toEqual({ data: [{ id: fileId, name: 'cv.pdf', type: 'Resume', externalID: 'doc-1' }] });
    });

    it('accepts the multipart raw variant', async () => {
      const form = new FormData();
      form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'smart.pdf');
      const res = await call(
        `file/Candidate/${candidateId}/raw?externalID=doc-2&fileType=SAMPLE&type=Smart%20CV`,
        { method: 'PUT', body: form },
      );
      expect(res.status).toBe(200);
      expect(sb.state.files()[0]).toMatchObject({
        name: 'smart.pdf',
        type: 'Smart CV',
        via: 'multipart',
        fileSize: pdf.length,
      });
    });

    it('refuses executables and scripts, long names, missing properties and oversized files', async () => {
      for (const name of ['setup.exe', 'x.js', 'page.HTML', 'a.php', 'a.asp', 'a.jsp', 'a.cfm']) {
        const res = await upload({ ...good, name });
        expect(res.status).toBe(400);
      }
      expect((await upload({ ...good, name: `${'n'.repeat(97)}.pdf` })).status).toBe(400);
      const { externalID: _e, ...noExternal } = good;
      expect((await upload(noExternal)).status).toBe(400);
      const big = Buffer.alloc(10 * 1024 * 1024 + 1, 1).toString('base64');
      const tooBig = await upload({ ...good, fileContent: big });
      expect(tooBig.status).toBe(413);
      expect(await json(tooBig)).toMatchObject({ errorCode: 413 });
      const form = new FormData();
      form.append('file', new Blob([Buffer.alloc(10 * 1024 * 1024 + 1)]), 'big.pdf');
      expect(
        (
          await call(`file/Candidate/${candidateId}/raw?externalID=big&fileType=SAMPLE`, {
            method: 'PUT',
            body: form,
          })
        ).status,
      ).toBe(413);
      const exe = new FormData();
      exe.append('file', new Blob([pdf]), 'tool.exe');
      expect(
        (
          await call(`file/Candidate/${candidateId}/raw?externalID=exe&fileType=SAMPLE`, {
            method: 'PUT',
            body: exe,
          })
        ).status,
      ).toBe(400);
      expect(sb.state.files()).toHaveLength(0);
    });
  });

  describe('limits and faults', () => {
    it('answers 429 over the per-minute limit per customer', async () => {
      const limited = await startAtsBSandbox({ perMinuteLimit: 5, seed: { jobs: 3 } });
      try {
        const call = api(await connect(limited));
        const statuses: number[] = [];
        for (let i = 0; i < 7; i++) statuses.push((await call('ping')).status);
        expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
        const res = await call('ping');
        expect(res.headers.get('retry-after')).toBe('1');
        expect(await json(res)).toMatchObject({
          errorCode: 429,
          errorMessage: expect.stringContaining('wait 1 second then retry'),
        });
      } finally {
        await limited.close();
      }
    });

    it('limits token requests and REST logins on their own, with 429 and no session opened', async () => {
      const limited = await startAtsBSandbox({ authPerMinuteLimit: 2, seed: { jobs: 3 } });
      try {
        const connected = await connect(limited); // one token request and one login
        const refresh = () =>
          token(limited, { grant_type: 'refresh_token', refresh_token: connected.tokens.refresh_token });
        const first = await refresh();
        expect(first.status).toBe(200);
        const refused = await token(limited, {
          grant_type: 'refresh_token',
          refresh_token: (await json<TokenResponse>(first)).refresh_token,
        });
        expect(refused.status).toBe(429);
        expect(await json(refused)).toMatchObject({ errorCode: 429 });
        const login = () =>
          fetch(
            `${limited.restLoginUrl}/login?version=*&access_token=${encodeURIComponent(connected.tokens.access_token)}`,
            { method: 'POST' },
          );
        expect((await login()).status).toBe(200);
        expect((await login()).status).toBe(429);
        // Data calls are not limited by it.
        expect((await api(connected)('ping')).status).toBe(200);
      } finally {
        await limited.close();
      }
    });

    it('finds a new candidate by search only after the index lag', async () => {
      const lagging = await startAtsBSandbox({ indexLagMs: 1_000, seed: { jobs: 3 } });
      try {
        const call = api(await connect(lagging));
        const created = await call('entity/Candidate', {
          method: 'PUT',
          json: { name: 'Lag Test', email: 'lag@example.com', status: 'New Lead' },
        });
        expect(created.status).toBe(200);
        const createdAt = Date.now();
        const found = async () =>
          (
            await json<{ total: number }>(
              await call(`search/Candidate?query=${encodeURIComponent('email:"lag@example.com"')}&fields=id`),
            )
          ).total;
        expect(await found()).toBe(0);
        await eventually(async () => (await found()) === 1, 5_000, 'the candidate in the index');
        expect(Date.now() - createdAt).toBeGreaterThanOrEqual(900);
      } finally {
        await lagging.close();
      }
    });

    it('timeout-after-write applies the write, then drops the connection without an answer', async () => {
      const call = api(await connect(sb));
      const faults = await fetch(`${sb.url}/__sandbox/faults`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ timeoutAfterWrite: { 'PUT entity/Candidate': 1 }, timeoutMs: 300 }),
      });
      expect(faults.status).toBe(200);
      await expect(
        call('entity/Candidate', { method: 'PUT', json: { name: 'Ghost', status: 'New Lead' } }),
      ).rejects.toThrow();
      expect(sb.state.candidates().map((c) => c.name)).toEqual(['Ghost']);
      // One-shot: the retry gets its answer (and, without idempotency on the client, makes a duplicate).
      expect(
        (await call('entity/Candidate', { method: 'PUT', json: { name: 'Ghost', status: 'New Lead' } }))
          .status,
      ).toBe(200);
    });

    it('injects errors per endpoint and forced 429s; admin shows calls', async () => {
      const call = api(await connect(sb));
      sb.state.setFaults({ errorRate: { 'PUT entity/Candidate': 1 }, errorStatus: 503 });
      const failed = await call('entity/Candidate', {
        method: 'PUT',
        json: { name: 'X', status: 'New Lead' },
      });
      expect(failed.status).toBe(503);
      expect(sb.state.candidates()).toHaveLength(0);
      expect((await call('ping')).status).toBe(200);
      sb.state.setFaults({ force429: 1 });
      expect((await call('ping')).status).toBe(429);
      expect((await call('ping')).status).toBe(200);

      const calls = await json<{ total: number; counts: Record<string, number> }>(
        await fetch(`${sb.url}/__sandbox/calls`),
      );
      expect(calls.counts['PUT entity/Candidate']).toBe(1);
      expect(calls.total).toBe(sb.state.totalCalls());
      await fetch(`${sb.url}/__sandbox/calls/reset`, { method: 'POST' });
      expect(sb.state.totalCalls()).toBe(0);
    });

    it('revokeRefreshTokens and reseeding over the admin surface', async () => {
      const { tokens } = await connect(sb);
      await fetch(`${sb.url}/__sandbox/refresh-tokens/revoke`, { method: 'POST' });
      expect(
        (await token(sb, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).status,
      ).toBe(400);

      const seeded = await fetch(`${sb.url}/__sandbox/seed`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jobs: 10, seed: 3 }),
      });
      expect(seeded.status).toBe(200);
      expect(sb.state.jobs.size).toBe(10);
      await fetch(`${sb.url}/__sandbox/reset`, { method: 'POST' });
      expect(sb.state.jobs.size).toBe(1234);
    });
  });
});
