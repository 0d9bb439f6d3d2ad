import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { startAtsASandbox, type RunningAtsASandbox } from '@connector/ats-a-sandbox';
import { AtsError } from '@connector/ats-http';
import { outboundGuard } from '@connector/ats-http';
import { AtsAClient, type AtsAClientConfig } from './ats-a.client';
import { requestAtsAToken } from './ats-a-token';
import type { AtsALink, AtsAVacancy } from './ats-a.types';

/** The blocks of a contact the search below asks for. */
interface AtsAContact {
  ContactId: number;
  FirstName: string;
  Surname: string;
  Company?: AtsALink | null;
}

const CLIENT_ID = 'demo-client';
const CLIENT_SECRET = 'demo-secret';
/** The sandbox listens on 127.0.0.1 over plain http: allowed explicitly, as in local mode. */
const SANDBOX = outboundGuard('loopback');

/** What a worker's token cache does: keep one token, ask for a new one only when told it was rejected. */
function tokenSource(baseUrl: string) {
  let current: string | undefined;
  const asked: Array<string | undefined> = [];
  const token: AtsAClientConfig['token'] = async ({ rejected }) => {
    asked.push(rejected);
    if (current === undefined || current === rejected) {
      current = (await requestAtsAToken(baseUrl, CLIENT_ID, CLIENT_SECRET, { guard: SANDBOX })).accessToken;
    }
    return current;
  };
  return { token, asked, current: () => current };
}

async function caught(promise: Promise<unknown>): Promise<AtsError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AtsError) return error;
    throw error;
  }
  throw new Error('expected an AtsError');
}

describe(AtsAClient.name, () => {
  let sandbox: RunningAtsASandbox;

  beforeAll(async () => {
    sandbox = await startAtsASandbox({ seed: { vacancies: 250, seed: 3 } });
  });
  afterAll(async () => {
    await sandbox.close();
  });
  afterEach(() => {
    sandbox.state.setFaults({});
  });

  describe(requestAtsAToken.name, () => {
    it('gets a token with its lifetime, whatever form the base address was pasted in', async () => {
      const token = await requestAtsAToken(`${sandbox.url}/api/`, CLIENT_ID, CLIENT_SECRET, {
        guard: SANDBOX,
      });
      expect(token.accessToken).toEqual(expect.any(String));
      expect(token.expiresInSeconds).toBe(3599);
    });

    it('refuses a bad secret as auth / invalid_client with a message a person can act on', async () => {
      const error = await caught(
        requestAtsAToken(sandbox.url, CLIENT_ID, 'wrong-secret-value', { guard: SANDBOX }),
      );
      expect(error).toMatchObject({ kind: 'auth', code: 'invalid_client', status: 401, retryable: false });
      expect(error.message).toMatch(/refused the client ID or client secret/);
      expect(error.message).not.toContain('wrong-secret-value');
      expect(JSON.stringify(error)).not.toContain('wrong-secret-value');
    });

    it('reports an unreachable ATS as unreachable', async () => {
      const port = await closedPort();
      const error = await caught(
        requestAtsAToken(`http://127.0.0.1:${port}`, CLIENT_ID, CLIENT_SECRET, { guard: SANDBOX }),
      );
      expect(error).toMatchObject({ kind: 'unreachable', ambiguous: false, retryable: true });
    });
  });

  it('streams 250 vacancies in 3 pages of 100, every vacancy once, one call per page asked for', async () => {
    const tokens = tokenSource(sandbox.url);
    const endpoints: string[] = [];
    const statuses: number[] = [];
    const client = new AtsAClient({
      guard: SANDBOX,
      baseUrl: sandbox.url,
      token: tokens.token,
      hooks: {
        beforeCall: async (endpoint) => {
          endpoints.push(endpoint);
        },
        afterCall: ({ status, headers }) => {
          statuses.push(status);
          expect(headers.get('x-ratelimit-remaining')).not.toBeNull();
        },
      },
    });
    const pages = client.searchPages<AtsAVacancy>('vacancies', {
      pageSize: 100,
      responseBlocks: ['VacancyId', 'Title', 'VacancyStatus'],
    });
    const first = await pages.next();
    // Lazy: only the first page has been asked for.
    expect(endpoints.filter((e) => e === 'POST /api/vacancies/search')).toHaveLength(1);
    const seen = [...(first.value ? first.value.records : [])];
    const pageNumbers = [first.value?.page];
    for await (const page of pages) {
      pageNumbers.push(page.page);
      expect(page.totalPages).toBe(3);
      seen.push(...page.records);
    }
    expect(pageNumbers).toEqual([1, 2, 3]);
    const ids = seen.map((v) => v.VacancyId);
    expect(ids).toHaveLength(250);
    expect(new Set(ids).size).toBe(250);
    expect(seen[0]).toEqual({
      VacancyId: expect.any(Number),
      Title: { Id: expect.any(Number), Description: expect.any(String) },
      VacancyStatus: { Id: expect.any(Number), Description: expect.any(String) },
    });
    expect(endpoints).toEqual([
      'POST /api/vacancies/search',
      'POST /api/vacancies/search',
      'POST /api/vacancies/search',
    ]);
    expect(statuses).toEqual([200, 200, 200]);
  });

  it('continues a listing from startPage, and ends at once on an empty result', async () => {
    const client = new AtsAClient({
      guard: SANDBOX,
      baseUrl: sandbox.url,
      token: tokenSource(sandbox.url).token,
    });
    const pages: number[] = [];
    for await (const page of client.searchPages<AtsAVacancy>('vacancies', { pageSize: 100, startPage: 3 })) {
      pages.push(page.page);
      expect(page.records).toHaveLength(50);
    }
    expect(pages).toEqual([3]);

    const none: unknown[] = [];
    for await (const page of client.searchPages<AtsAVacancy>('vacancies', {
      pageSize: 100,
      filters: [{ Route: 'Vacancy.VacancyId', Operation: 'Equals', Value: -1 }],
    })) {
      none.push(page);
    }
    expect(none).toEqual([]);
  });

  it('filters contacts with In on the collected ids, in one call', async () => {
    const client = new AtsAClient({
      guard: SANDBOX,
      baseUrl: sandbox.url,
      token: tokenSource(sandbox.url).token,
    });
    const vacancies = await client.search<AtsAVacancy>('vacancies', {
      Paging: { RecordsPerPage: 50, RequestedPage: 1 },
      ResponseBlocks: ['VacancyId', 'Contact'],
    });
    const contactIds = [
      ...new Set(vacancies.Records.map((v) => v.Contact?.Id).filter((id): id is number => id !== undefined)),
    ];
    expect(contactIds.length).toBeGreaterThan(1);
    const contacts = await client.search<AtsAContact>('contacts', {
      Paging: { RecordsPerPage: 500, RequestedPage: 1 },
      Filters: [{ Route: 'Contact.ContactId', Operation: 'In', Value: contactIds }],
      ResponseBlocks: ['ContactId', 'FirstName', 'Surname', 'Company'],
    });
    expect(contacts.Records.map((c) => c.ContactId).sort()).toEqual([...contactIds].sort());
  });

  it('gets a new token once when the token is revoked mid-way, and the call succeeds', async () => {
    const tokens = tokenSource(sandbox.url);
    const client = new AtsAClient({ guard: SANDBOX, baseUrl: sandbox.url, token: tokens.token });
    const pages = client.searchPages<AtsAVacancy>('vacancies', { pageSize: 100 });
    await pages.next();
    const before = tokens.current();
    sandbox.state.setFaults({ revokeTokens: true });
    const second = await pages.next();
    expect(second.value).toMatchObject({ page: 2 });
    expect(tokens.asked).toEqual([undefined, undefined, before]);
    expect(tokens.current()).not.toBe(before);
    await pages.return(undefined);
  });

  it('gives up with auth after one new token when the ATS keeps refusing', async () => {
    let asked = 0;
    const client = new AtsAClient({
      guard: SANDBOX,
      baseUrl: sandbox.url,
      token: async () => {
        asked++;
        return 'not-a-valid-token';
      },
    });
    const error = await caught(client.getVacancyStatuses());
    expect(error).toMatchObject({ kind: 'auth', status: 401, endpoint: 'GET /api/options/dropdown/50' });
    expect(asked).toBe(2);
    expect(error.message).not.toContain('not-a-valid-token');
  });

  it('reports the daily limit as rate_limited with retryAt from the ATS', async () => {
    const client = new AtsAClient({
      guard: SANDBOX,
      baseUrl: sandbox.url,
      token: tokenSource(sandbox.url).token,
    });
    await client.getVacancyStatuses(); // the token is fetched before the limit bites
    sandbox.state.setFaults({ force429: true });
    const error = await caught(client.getVacancyStatuses());
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429, retryable: true });
    expect(error.atsMessage).toBe('Daily API limit exceeded');
    expect(error.retryAt!.getTime()).toBeGreaterThan(Date.now());
    // The sandbox's window is a UTC day: the reset is at most a day away.
    expect(error.retryAt!.getTime()).toBeLessThanOrEqual(Date.now() + 86_400_000 + 1000);
  });

  it('reads the vacancy statuses (the connection test read)', async () => {
    const client = new AtsAClient({
      guard: SANDBOX,
      baseUrl: sandbox.url,
      token: tokenSource(sandbox.url).token,
    });
    const statuses = await client.getVacancyStatuses();
    expect(statuses).toContainEqual({ Id: 31, Description: 'Open' });
  });

  describe('writes', () => {
    const candidate = {
      FirstName: 'Zoë',
      Surname: 'Ångström',
      Email: 'zoe@example.com',
      EmploymentHistory: [
        { Employer: 'Acme', JobTitle: 'Engineer', StartDate: '2020-01', EndDate: null, Description: null },
      ],
      Education: [
        {
          Establishment: 'Uni',
          Qualification: 'BSc',
          Subject: 'Physics',
          StartDate: '2015-09',
          EndDate: '2018-06',
        },
      ],
    };

    it('creates and patches a candidate and an application', async () => {
      const client = new AtsAClient({
        guard: SANDBOX,
        baseUrl: sandbox.url,
        token: tokenSource(sandbox.url).token,
      });
      const { CandidateId } = await client.createCandidate(candidate);
      await client.patchCandidate(CandidateId, { Mobile: '+44 7700 900000' });
      const { ApplicationId } = await client.createApplication({
        Candidate: { Id: CandidateId },
        Vacancy: { Id: 1 },
        Questions: [{ Question: 'Notice period?', Answer: '1 month' }],
      });
      await client.patchApplication(ApplicationId, {
        Questions: [{ Question: 'Notice period?', Answer: '2 weeks' }],
      });
      const stored = sandbox.state.candidates().find((c) => c.CandidateId === CandidateId);
      expect(stored).toMatchObject({ Mobile: '+44 7700 900000', EmploymentHistory: [{ Employer: 'Acme' }] });
      const application = sandbox.state.applications().find((a) => a.ApplicationId === ApplicationId);
      expect(application?.Questions).toEqual([{ Question: 'Notice period?', Answer: '2 weeks' }]);
    });

    it('reports a validation error as permanent with the ATS message', async () => {
      const client = new AtsAClient({
        guard: SANDBOX,
        baseUrl: sandbox.url,
        token: tokenSource(sandbox.url).token,
      });
      const error = await caught(client.createCandidate({ ...candidate, Email: '' }));
      expect(error).toMatchObject({ kind: 'permanent', status: 400, ambiguous: false });
      expect(error.atsMessage).toMatch(/Email/);
    });

    it('reports an unknown id as not_found', async () => {
      const client = new AtsAClient({
        guard: SANDBOX,
        baseUrl: sandbox.url,
        token: tokenSource(sandbox.url).token,
      });
      const error = await caught(client.patchCandidate(3_999_999, { Mobile: '1' }));
      expect(error).toMatchObject({ kind: 'not_found', status: 404, endpoint: 'PATCH /api/candidates/{id}' });
    });

    it('marks a write that timed out after it was applied as ambiguous', async () => {
      const client = new AtsAClient({
        guard: SANDBOX,
        baseUrl: sandbox.url,
        token: tokenSource(sandbox.url).token,
        timeoutMs: 300,
      });
      await client.getVacancyStatuses(); // token first, so the timeout hits the write
      const before = sandbox.state.candidates().length;
      sandbox.state.setFaults({ timeoutAfterWrite: { 'POST /api/candidates': 1 }, timeoutMs: 5_000 });
      const error = await caught(client.createCandidate({ ...candidate, Email: 'ambiguous@example.com' }));
      expect(error).toMatchObject({
        kind: 'transient',
        ambiguous: true,
        retryable: true,
        endpoint: 'POST /api/candidates',
      });
      // It was applied: the caller must reconcile (candidates/search) before trying again.
      expect(sandbox.state.candidates().length).toBe(before + 1);
    });

    it('does not mark a read that timed out as ambiguous', async () => {
      const client = new AtsAClient({
        guard: SANDBOX,
        baseUrl: sandbox.url,
        token: tokenSource(sandbox.url).token,
        timeoutMs: 200,
      });
      await client.getVacancyStatuses();
      sandbox.state.setFaults({ latencyMs: 1_000 });
      const error = await caught(client.getVacancyStatuses());
      expect(error).toMatchObject({ kind: 'transient', ambiguous: false });
    });

    it('uploads a CV as multipart with its name, type and bytes', async () => {
      const client = new AtsAClient({
        guard: SANDBOX,
        baseUrl: sandbox.url,
        token: tokenSource(sandbox.url).token,
      });
      const { CandidateId } = await client.createCandidate({ ...candidate, Email: 'cv@example.com' });
      const content = Buffer.from('%PDF-1.4 fake cv \u00e9', 'utf8');
      const { FileId } = await client.uploadCandidateFile(
        CandidateId,
        'cv',
        { name: 'cv é.pdf', contentType: 'application/pdf', content },
        2,
      );
      const stored = sandbox.state.files().find((f) => f.FileId === FileId);
      expect(stored).toMatchObject({
        CandidateId,
        kind: 'cv',
        FileTypeId: 2,
        contentType: 'application/pdf',
        sizeBytes: content.length,
        sha256: createHash('sha256').update(content).digest('hex'),
      });
    });
  });
});

/** A port nothing listens on: bind one, then close it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
