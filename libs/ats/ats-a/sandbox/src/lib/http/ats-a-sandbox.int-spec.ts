import { createHash } from 'node:crypto';
import { eventually } from '@connector/testing';
import { startAtsASandbox, type RunningAtsASandbox } from './ats-a-sandbox.server';
import type { AtsASandboxOptions } from '../ats-a-sandbox.options';

type Json = Record<string, unknown>;

async function post(url: string, body: unknown, token?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

async function tokenFor(
  sandbox: RunningAtsASandbox,
  clientId = 'demo-client',
  clientSecret = 'demo-secret',
): Promise<string> {
  const res = await post(`${sandbox.url}/api/token`, {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function withSandbox(
  options: AtsASandboxOptions,
  run: (sandbox: RunningAtsASandbox) => Promise<void>,
): Promise<void> {
  const sandbox = await startAtsASandbox(options);
  try {
    await run(sandbox);
  } finally {
    await sandbox.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ATS-A sandbox over HTTP', () => {
  let sandbox: RunningAtsASandbox;
  let token: string;
  const api = (path: string) => `${sandbox.url}/api${path}`;
  const admin = (path: string) => `${sandbox.url}/__sandbox${path}`;

  beforeAll(async () => {
    sandbox = await startAtsASandbox({ seed: { vacancies: 1234, seed: 42 }, maxUploadBytes: 1024 });
    token = await tokenFor(sandbox);
  });
  afterAll(() => sandbox.close());
  beforeEach(() => sandbox.state.setFaults({}));

  describe('token', () => {
    it('grants a bearer token for a JSON or form-encoded client_credentials request', async () => {
      const json = await post(api('/token'), {
        grant_type: 'client_credentials',
        client_id: 'demo-client',
        client_secret: 'demo-secret',
      });
      expect(json.status).toBe(200);
      expect(await json.json()).toMatchObject({
        token_type: 'Bearer',
        expires_in: 3599,
        access_token: expect.any(String),
        scope: expect.any(String),
      });
      const form = await fetch(api('/token'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret',
      });
      expect(form.status).toBe(200);
    });

    it('refuses a bad secret with 401 invalid_client and a wrong grant type with 400', async () => {
      const bad = await post(api('/token'), {
        grant_type: 'client_credentials',
        client_id: 'demo-client',
        client_secret: 'nope',
      });
      expect(bad.status).toBe(401);
      expect(await bad.json()).toEqual({ error: 'invalid_client' });
      const grant = await post(api('/token'), {
        grant_type: 'password',
        client_id: 'demo-client',
        client_secret: 'demo-secret',
      });
      expect(grant.status).toBe(400);
      expect(await grant.json()).toEqual({ error: 'unsupported_grant_type' });
    });

    it('answers 401 with error_message without a token, and after revokeTokens', async () => {
      const none = await post(api('/vacancies/search'), {});
      expect(none.status).toBe(401);
      expect(await none.json()).toEqual({ error_message: expect.any(String) });
      const own = await tokenFor(sandbox);
      expect((await post(api('/vacancies/search'), {}, own)).status).toBe(200);
      await fetch(admin('/faults'), {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ revokeTokens: true }),
      });
      expect((await post(api('/vacancies/search'), {}, own)).status).toBe(401);
      token = await tokenFor(sandbox);
    });
  });

  describe('search', () => {
    it('pages through 1 234 vacancies, each exactly once, in id order', async () => {
      const ids: number[] = [];
      let page = 1;
      for (;;) {
        const res = await post(
          api('/vacancies/search'),
          { Paging: { RecordsPerPage: 100, RequestedPage: page }, ResponseBlocks: ['VacancyId'] },
          token,
        );
        const body = (await res.json()) as {
          CurrentPage: number;
          TotalPages: number;
          Records: { VacancyId: number }[];
        };
        expect(body.CurrentPage).toBe(page);
        ids.push(...body.Records.map((r) => r.VacancyId));
        if (body.CurrentPage >= body.TotalPages) break;
        page++;
      }
      expect(page).toBe(13);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(1234);
    });

    it('limits fields to the ResponseBlocks asked for', async () => {
      const res = await post(
        api('/vacancies/search'),
        { Paging: { RecordsPerPage: 5, RequestedPage: 1 }, ResponseBlocks: ['Title', 'ModificationDate'] },
        token,
      );
      const { Records } = (await res.json()) as { Records: Json[] };
      expect(Records).toHaveLength(5);
      for (const record of Records)
        expect(Object.keys(record).sort()).toEqual(['ModificationDate', 'Title', 'VacancyId']);
    });

    it('enriches with In on contact and company ids (one call each)', async () => {
      const res = await post(
        api('/vacancies/search'),
        { Paging: { RecordsPerPage: 50, RequestedPage: 1 }, ResponseBlocks: ['Company', 'Contact'] },
        token,
      );
      const { Records } = (await res.json()) as {
        Records: { Company: { Id: number } | null; Contact: { Id: number } | null }[];
      };
      const companyIds = [...new Set(Records.flatMap((r) => (r.Company ? [r.Company.Id] : [])))];
      const contactIds = [...new Set(Records.flatMap((r) => (r.Contact ? [r.Contact.Id] : [])))];
      const companies = (await (
        await post(
          api('/companies/search'),
          {
            Paging: { RecordsPerPage: 500, RequestedPage: 1 },
            Filters: [{ Route: 'Company.CompanyId', Operation: 'In', Value: companyIds }],
          },
          token,
        )
      ).json()) as { Records: { CompanyId: number; Name: string }[] };
      const contacts = (await (
        await post(
          api('/contacts/search'),
          {
            Paging: { RecordsPerPage: 500, RequestedPage: 1 },
            Filters: [{ Route: 'Contact.ContactId', Operation: 'In', Value: contactIds }],
          },
          token,
        )
      ).json()) as { Records: { ContactId: number }[] };
      expect(companies.Records.map((c) => c.CompanyId).sort()).toEqual([...companyIds].sort());
      expect(contacts.Records.map((c) => c.ContactId).sort()).toEqual([...contactIds].sort());
      expect(companies.Records[0].Name).toEqual(expect.any(String));
    });

    it('finds vacancies changed after a date, including one changed through the admin surface', async () => {
      const since = new Date().toISOString();
      await sleep(5);
      const patched = await fetch(admin('/vacancies/7'), {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ Title: 'Zoë’s new title', IncludeOnSite: false }),
      });
      expect(patched.status).toBe(200);
      const res = await post(
        api('/vacancies/search'),
        { Filters: [{ Route: 'Vacancy.ModificationDate', Operation: 'GreaterThan', Value: since }] },
        token,
      );
      const body = (await res.json()) as { TotalPages: number; Records: Json[] };
      expect(body.TotalPages).toBe(1);
      expect(body.Records).toEqual([
        expect.objectContaining({
          VacancyId: 7,
          IncludeOnSite: false,
          Title: { Id: 900, Description: 'Zoë’s new title' },
        }),
      ]);
    });

    it('answers 400 error_message for a bad search body', async () => {
      const res = await post(
        api('/vacancies/search'),
        { Paging: { RecordsPerPage: 10_000, RequestedPage: 1 } },
        token,
      );
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error_message: expect.stringContaining('RecordsPerPage') });
    });

    it('lists vacancy statuses in dropdown 50 (per-customer ids), counted as a call', async () => {
      const before = sandbox.state.callCounts().byEndpoint['GET /api/options/dropdown/{id}'] ?? 0;
      const res = await fetch(api('/options/dropdown/50'), { headers: { authorization: `Bearer ${token}` } });
      const statuses = (await res.json()) as Array<{ Id: number; Description: string }>;
      expect(statuses).toEqual(
        expect.arrayContaining([
          { Id: 31, Description: 'Open' },
          { Id: 7, Description: 'Live' },
          { Id: 3, Description: 'Closed' },
        ]),
      );
      expect(sandbox.state.callCounts().byEndpoint['GET /api/options/dropdown/{id}']).toBe(before + 1);
      expect(res.headers.get('x-ratelimit-remaining')).toEqual(expect.any(String));
    });

    it('filters statuses by Id; a status name there matches nothing, the Description sub-route matches text', async () => {
      const count = async (filter: Json) =>
        // One record a page: TotalPages is the number of matches.
        (
          (await (
            await post(api('/vacancies/search'), { Paging: { RecordsPerPage: 1 }, Filters: [filter] }, token)
          ).json()) as { TotalPages: number }
        ).TotalPages;
      expect(await count({ Route: 'Vacancy.VacancyStatus', Operation: 'In', Value: ['Open', 'Live'] })).toBe(
        0,
      );
      const byId = await count({ Route: 'Vacancy.VacancyStatus', Operation: 'In', Value: [31, 7] });
      expect(byId).toBeGreaterThan(0);
      const open = await count({
        Route: 'Vacancy.VacancyStatus.Description',
        Operation: 'Equals',
        Value: 'Open',
      });
      const live = await count({
        Route: 'Vacancy.VacancyStatus.Description',
        Operation: 'Equals',
        Value: 'Live',
      });
      expect(open + live).toBe(byId);
    });
  });

  describe('writes', () => {
    const candidate = {
      FirstName: 'Zoë',
      Surname: 'Łukasiewicz',
      Email: 'zoe@example.com',
      EmploymentHistory: [
        {
          Employer: '東京 Trading',
          JobTitle: 'Analyst',
          StartDate: '2020-01',
          EndDate: null,
          Description: null,
        },
      ],
      Education: [
        {
          Establishment: 'Uniwersytet Łódzki',
          Qualification: 'MSc',
          Subject: 'Maths',
          StartDate: '2015-10',
          EndDate: '2019-06',
        },
      ],
    };

    it('creates, validates and patches candidates, and finds them by email', async () => {
      const created = await post(api('/candidates'), candidate, token);
      expect(created.status).toBe(201);
      const { CandidateId } = (await created.json()) as { CandidateId: number };
      const invalid = await post(api('/candidates'), { FirstName: 'No', Email: 'x@example.com' }, token);
      expect(invalid.status).toBe(400);
      expect(await invalid.json()).toEqual({ error_message: 'Surname is required' });
      const patch = await fetch(api(`/candidates/${CandidateId}`), {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ Mobile: '+44 7700 900000' }),
      });
      expect(patch.status).toBe(200);
      const unknown = await fetch(api('/candidates/123'), {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ Mobile: '1' }),
      });
      expect(unknown.status).toBe(404);
      const found = await post(
        api('/candidates/search'),
        { Filters: [{ Route: 'Candidate.Email', Operation: 'Equals', Value: 'ZOE@example.com' }] },
        token,
      );
      const { Records } = (await found.json()) as { Records: Json[] };
      expect(Records).toEqual([
        expect.objectContaining({
          CandidateId,
          Mobile: '+44 7700 900000',
          // Empty values come back left out (the sandbox's wire format), not as null.
          EmploymentHistory: [{ Employer: '東京 Trading', JobTitle: 'Analyst', StartDate: '2020-01' }],
        }),
      ]);
    });

    it('accepts a duplicate application but counts it, and finds applications by candidate and vacancy', async () => {
      const { CandidateId } = (await (await post(api('/candidates'), candidate, token)).json()) as {
        CandidateId: number;
      };
      const application = {
        Candidate: { Id: CandidateId },
        Vacancy: { Id: 10 },
        Questions: [{ Question: 'Notice period?', Answer: '1 month' }],
      };
      const before = sandbox.state.duplicateApplications();
      const first = await post(api('/applications'), application, token);
      const second = await post(api('/applications'), application, token);
      expect([first.status, second.status]).toEqual([201, 201]);
      const summary = (await (await fetch(admin('/applications'))).json()) as { duplicates: number };
      expect(summary.duplicates).toBe(before + 1);
      const found = await post(
        api('/applications/search'),
        {
          Filters: [
            { Route: 'Application.Candidate', Operation: 'Equals', Value: CandidateId },
            { Route: 'Application.Vacancy', Operation: 'Equals', Value: 10 },
          ],
        },
        token,
      );
      expect(((await found.json()) as { Records: Json[] }).Records).toHaveLength(2);
      const { ApplicationId } = (await first.json()) as { ApplicationId: number };
      const patch = await fetch(api(`/applications/${ApplicationId}`), {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ Questions: [{ Question: 'Notice period?', Answer: '2 months' }] }),
      });
      expect(patch.status).toBe(200);
      expect(sandbox.state.applications().find((a) => a.ApplicationId === ApplicationId)?.Questions).toEqual([
        { Question: 'Notice period?', Answer: '2 months' },
      ]);
      expect(
        (await post(api('/applications'), { ...application, Vacancy: { Id: 999_999 } }, token)).status,
      ).toBe(404);
    });

    it('stores uploads with their sha256 and size, and refuses too large ones with 413', async () => {
      const { CandidateId } = (await (await post(api('/candidates'), candidate, token)).json()) as {
        CandidateId: number;
      };
      const upload = (bytes: Buffer, id = CandidateId, kind = 'cv') => {
        const form = new FormData();
        form.append('FileTypeId', '2');
        form.append('file', new Blob([bytes], { type: 'application/pdf' }), 'Zoë CV.pdf');
        return fetch(api(`/candidates/${id}/upload/${kind}`), {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
        });
      };
      const bytes = Buffer.from('%PDF-1.4 tiny cv');
      const ok = await upload(bytes);
      expect(ok.status).toBe(201);
      const { FileId } = (await ok.json()) as { FileId: number };
      const files = (await (await fetch(admin('/files'))).json()) as { files: Json[] };
      expect(files.files).toContainEqual(
        expect.objectContaining({
          FileId,
          CandidateId,
          kind: 'cv',
          FileTypeId: 2,
          fileName: 'Zoë CV.pdf',
          contentType: 'application/pdf',
          sizeBytes: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
        }),
      );
      const big = await upload(Buffer.alloc(1025, 1));
      expect(big.status).toBe(413);
      expect(await big.json()).toEqual({ error_message: expect.stringContaining('1024') });
      expect((await upload(bytes, 42)).status).toBe(404);
    });
  });

  describe('faults', () => {
    it('applies a write and then holds the connection and drops it without an answer', async () => {
      const { CandidateId } = (await (
        await post(api('/candidates'), { FirstName: 'A', Surname: 'B', Email: 'ab@example.com' }, token)
      ).json()) as { CandidateId: number };
      const put = await fetch(admin('/faults'), {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ timeoutAfterWrite: { 'POST /api/applications': 1 }, timeoutMs: 300 }),
      });
      expect(put.status).toBe(200);
      const before = sandbox.state.applications().length;
      const started = Date.now();
      await expect(
        post(api('/applications'), { Candidate: { Id: CandidateId }, Vacancy: { Id: 3 } }, token),
      ).rejects.toThrow();
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(sandbox.state.applications()).toHaveLength(before + 1);
      // Only the next N writes time out; the reconciling search and later writes answer normally.
      const found = await post(
        api('/applications/search'),
        { Filters: [{ Route: 'Application.Candidate', Operation: 'Equals', Value: CandidateId }] },
        token,
      );
      expect(((await found.json()) as { Records: Json[] }).Records).toHaveLength(1);
    });

    it('injects 5xx errors per endpoint', async () => {
      sandbox.state.setFaults({ errorRate: { 'POST /api/candidates': 1 }, errorStatus: 503 });
      const res = await post(
        api('/candidates'),
        { FirstName: 'A', Surname: 'B', Email: 'ab@example.com' },
        token,
      );
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error_message: expect.any(String) });
      expect((await post(api('/vacancies/search'), {}, token)).status).toBe(200);
    });

    it('counts calls per endpoint', async () => {
      await fetch(admin('/calls/reset'), { method: 'POST' });
      await post(api('/vacancies/search'), {}, token);
      await post(api('/vacancies/search'), {}, token);
      const calls = (await (await fetch(admin('/calls'))).json()) as {
        total: number;
        byEndpoint: Record<string, number>;
      };
      expect(calls).toEqual({ total: 2, byEndpoint: { 'POST /api/vacancies/search': 2 }, rateLimited: {} });
      // Answers 429 are counted by endpoint too.
      sandbox.state.setFaults({ force429: true });
      expect((await post(api('/vacancies/search'), {}, token)).status).toBe(429);
      expect(sandbox.state.callCounts().rateLimited).toEqual({ 'POST /api/vacancies/search': 1 });
    });
  });
});

describe('ATS-A sandbox limits', () => {
  it('expires tokens after tokenTtlSeconds', () =>
    withSandbox({ tokenTtlSeconds: 1 }, async (sandbox) => {
      const token = await tokenFor(sandbox);
      expect((await post(`${sandbox.url}/api/vacancies/search`, {}, token)).status).toBe(200);
      await sleep(1100);
      const expired = await post(`${sandbox.url}/api/vacancies/search`, {}, token);
      expect(expired.status).toBe(401);
      expect(await expired.json()).toEqual({ error_message: expect.any(String) });
    }));

  it('answers 429 with Retry-After and rate-limit headers past the limit, until the window resets', () =>
    withSandbox({ dailyLimit: 3, quotaWindowSeconds: 2 }, async (sandbox) => {
      // Start just after a window boundary so the three calls land in one window.
      await sleep(2000 - (Date.now() % 2000) + 20);
      const token = await tokenFor(sandbox); // the token call counts too
      const first = await post(`${sandbox.url}/api/vacancies/search`, {}, token);
      expect(first.headers.get('x-ratelimit-limit')).toBe('3');
      expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
      const reset = Number(first.headers.get('x-ratelimit-reset'));
      expect(reset % 2).toBe(0);
      expect(reset * 1000).toBeGreaterThan(Date.now());
      expect((await post(`${sandbox.url}/api/vacancies/search`, {}, token)).status).toBe(200);
      const limited = await post(`${sandbox.url}/api/vacancies/search`, {}, token);
      expect(limited.status).toBe(429);
      expect(await limited.json()).toEqual({ error_message: 'Daily API limit exceeded' });
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(2);
      await sleep(reset * 1000 - Date.now() + 20);
      expect((await post(`${sandbox.url}/api/vacancies/search`, {}, token)).status).toBe(200);
    }));

  it('counts the token call against the limit by default, and not when countTokenCalls is off', async () => {
    const tokenCallsUse = async (options: AtsASandboxOptions) => {
      let used = -1;
      await withSandbox(options, async (sandbox) => {
        const res = await post(`${sandbox.url}/api/token`, {
          grant_type: 'client_credentials',
          client_id: 'demo-client',
          client_secret: 'demo-secret',
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-ratelimit-limit')).toBe('70');
        used = sandbox.state.quota().used;
      });
      return used;
    };
    expect(await tokenCallsUse({ dailyLimit: 70 })).toBe(1);
    expect(await tokenCallsUse({ dailyLimit: 70, countTokenCalls: false })).toBe(0);
  });

  it('starts a quota window on demand, with the use a test sets', () =>
    withSandbox({ dailyLimit: 70, quotaWindowSeconds: 150 }, async (sandbox) => {
      const started = Date.now();
      const quota = sandbox.state.setQuota({ used: 45, startWindow: true });
      expect(quota).toMatchObject({ used: 45, remaining: 25, windowSeconds: 150 });
      expect(Math.abs(Date.parse(quota.windowStart) - started)).toBeLessThan(1_000);
      expect(quota.retryAfterSeconds).toBeGreaterThanOrEqual(149);
    }));

  it('ends a quota window at the time a test names: its day resets at its own hour', () =>
    withSandbox({ dailyLimit: 70 }, async (sandbox) => {
      const resetAt = new Date(Date.now() + 180_000);
      const admin = `${sandbox.url}/__sandbox/quota`;
      const put = (body: Json) =>
        fetch(admin, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect((await put({ used: 70, resetAt: resetAt.toISOString() })).status).toBe(200);
      const limited = await post(`${sandbox.url}/api/token`, { grant_type: 'client_credentials' });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('x-ratelimit-reset'))).toBe(Math.ceil(resetAt.getTime() / 1000));
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(170);
      // In the past, or further than one window ahead: refused, nothing changed.
      expect((await put({ resetAt: new Date(Date.now() - 1_000).toISOString() })).status).toBe(400);
      expect((await put({ resetAt: 'tomorrow' })).status).toBe(400);
      expect(sandbox.state.quota().used).toBe(70);
    }));

  it('expires tokens early when told to: before the expires_in they were issued with', () =>
    withSandbox({ tokenTtlSeconds: 3, tokenEarlyExpirySeconds: 2 }, async (sandbox) => {
      const issuedAt = Date.now();
      const token = await tokenFor(sandbox);
      expect((await post(`${sandbox.url}/api/vacancies/search`, {}, token)).status).toBe(200);
      await eventually(
        async () => (await post(`${sandbox.url}/api/vacancies/search`, {}, token)).status === 401,
        5_000,
        'the token to expire early',
      );
      expect(Date.now() - issuedAt).toBeLessThan(3_000);
    }));

  it('shows a new candidate in searches only after the index lag', () =>
    withSandbox({ indexLagMs: 1_000 }, async (sandbox) => {
      const token = await tokenFor(sandbox);
      const created = await post(
        `${sandbox.url}/api/candidates`,
        { FirstName: 'Ada', Surname: 'Lovelace', Email: 'ada.lag@example.com' },
        token,
      );
      expect(created.status).toBe(201);
      const createdAt = Date.now();
      const search = async () => {
        const res = await post(
          `${sandbox.url}/api/candidates/search`,
          {
            Paging: { RecordsPerPage: 10, RequestedPage: 1 },
            Filters: [{ Route: 'Candidate.Email', Operation: 'Equals', Value: 'ada.lag@example.com' }],
          },
          token,
        );
        return ((await res.json()) as { Records: unknown[] }).Records.length;
      };
      expect(await search()).toBe(0);
      await eventually(async () => (await search()) === 1, 5_000, 'the candidate in the index');
      expect(Date.now() - createdAt).toBeGreaterThanOrEqual(900);
    }));

  it('fails the next N calls of an endpoint (failNext), then works again', () =>
    withSandbox({}, async (sandbox) => {
      const token = await tokenFor(sandbox);
      sandbox.state.setFaults({ failNext: { 'POST /api/candidates': 3 }, errorStatus: 503 });
      const create = () =>
        post(
          `${sandbox.url}/api/candidates`,
          { FirstName: 'A', Surname: 'B', Email: 'ab@example.com' },
          token,
        );
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await create()).status);
      expect(statuses).toEqual([503, 503, 503, 201]);
      expect(sandbox.state.candidates()).toHaveLength(1);
    }));

  it('forbids calls outside a client’s scopes with 403', () =>
    withSandbox(
      { clients: [{ clientId: 'reader', clientSecret: 's', scopes: ['vacancies.read'] }] },
      async (sandbox) => {
        const token = await tokenFor(sandbox, 'reader', 's');
        expect((await post(`${sandbox.url}/api/vacancies/search`, {}, token)).status).toBe(200);
        const res = await post(
          `${sandbox.url}/api/candidates`,
          { FirstName: 'A', Surname: 'B', Email: 'ab@example.com' },
          token,
        );
        expect(res.status).toBe(403);
        expect(await res.json()).toEqual({ error_message: expect.stringContaining('candidates.insert') });
      },
    ));

  it('adds the configured latency to every /api call', () =>
    withSandbox({ latencyMs: 150 }, async (sandbox) => {
      const started = Date.now();
      await post(`${sandbox.url}/api/token`, {
        grant_type: 'client_credentials',
        client_id: 'demo-client',
        client_secret: 'demo-secret',
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    }));
});
