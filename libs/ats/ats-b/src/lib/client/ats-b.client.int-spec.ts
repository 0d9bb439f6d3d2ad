import { createHash } from 'node:crypto';
import { startAtsBSandbox, type RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import { driveLoginForm } from '@connector/ats-b-sandbox/testing';
import { AtsError } from '@connector/ats-http';
import { outboundGuard } from '@connector/ats-http';
import { AtsBOAuthClient } from './ats-b-oauth.client';
import { AtsBClient, type AtsBClientConfig } from './ats-b.client';
import type { AtsBSession, AtsBTokenSet } from './ats-b.types';

const USER = { username: 'recruiter', password: 'recruiter-pass' };
const REDIRECT_URI = 'http://127.0.0.1:9/oauth/ats-b/callback';
/** The sandbox listens on 127.0.0.1 over plain http: allowed explicitly, as in local mode. */
const SANDBOX = outboundGuard('loopback');

async function caught(promise: Promise<unknown>): Promise<AtsError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AtsError) return error;
    throw error;
  }
  throw new Error('expected an AtsError');
}

describe('ATS-B clients', () => {
  let sandbox: RunningAtsBSandbox;
  let oauth: AtsBOAuthClient;

  const oauthClient = (options: { timeoutMs?: number } = {}) =>
    new AtsBOAuthClient(
      {
        clientId: 'platform-client',
        clientSecret: 'platform-secret',
        redirectUri: REDIRECT_URI,
        oauthUrl: sandbox.oauthUrl,
        restLoginUrl: sandbox.restLoginUrl,
      },
      { guard: SANDBOX, ...options },
    );

  /** The admin's browser: authorize page → login form → redirect with code and state. */
  async function authorize(state = `state-${Math.random()}`): Promise<string> {
    const location = new URL(await driveLoginForm(oauth.authorizeUrl(state), USER));
    expect(location.searchParams.get('state')).toBe(state);
    return location.searchParams.get('code')!;
  }

  /** What auth-gateway does for a worker: a session, renewed (refresh + login) only when told it was rejected. */
  function sessionSource(tokens: AtsBTokenSet) {
    let refreshToken = tokens.refreshToken;
    let current: AtsBSession | undefined;
    const asked: Array<string | undefined> = [];
    let accessToken: string | undefined = tokens.accessToken;
    const session: AtsBClientConfig['session'] = async ({ rejected }) => {
      asked.push(rejected);
      if (current === undefined || current.bhRestToken === rejected) {
        if (accessToken === undefined) {
          const next = await oauth.refresh(refreshToken);
          refreshToken = next.refreshToken;
          accessToken = next.accessToken;
        }
        current = await oauth.login(accessToken);
        accessToken = undefined; // a new session after this one always refreshes first, as ats-b.md says
      }
      return current;
    };
    return { session, asked };
  }

  let client: AtsBClient;

  beforeAll(async () => {
    sandbox = await startAtsBSandbox({ seed: { jobs: 230, seed: 5 } });
    oauth = oauthClient();
    const tokens = await oauth.exchangeCode(await authorize());
    client = new AtsBClient({ guard: SANDBOX, session: sessionSource(tokens).session });
  });
  afterAll(async () => {
    await sandbox.close();
  });
  afterEach(() => {
    sandbox.state.clearFaults();
  });

  describe(AtsBOAuthClient.name, () => {
    it('builds the authorize URL with the parameters ats-b.md lists', () => {
      const url = new URL(oauth.authorizeUrl('s1'));
      expect(`${url.origin}${url.pathname}`).toBe(`${sandbox.oauthUrl}/authorize`);
      expect(Object.fromEntries(url.searchParams)).toEqual({
        client_id: 'platform-client',
        response_type: 'code',
        redirect_uri: REDIRECT_URI,
        state: 's1',
      });
    });

    it('runs the whole login: authorize form → code → tokens → login → ping', async () => {
      const code = await authorize();
      const tokens = await oauth.exchangeCode(code);
      expect(tokens).toEqual({
        accessToken: expect.any(String),
        refreshToken: expect.any(String),
        expiresInSeconds: 600,
        // One data centre: the tokens come from the configured address itself.
        oauthUrl: sandbox.oauthUrl,
      });
      const session = await oauth.login(tokens.accessToken);
      expect(session.restUrl).toMatch(new RegExp(`^${sandbox.restLoginUrl}/[^/]+/$`));
      expect(session.restLoginUrl).toBe(sandbox.restLoginUrl);
      const fresh = new AtsBClient({ guard: SANDBOX, session: async () => session });
      const { sessionExpires } = await fresh.ping();
      expect(sessionExpires).toBeGreaterThan(Date.now());

      // A code is single use.
      const reused = await caught(oauth.exchangeCode(code));
      expect(reused).toMatchObject({ kind: 'auth', code: 'invalid_grant', status: 400 });
      expect(reused.message).not.toContain(code);
    });

    it('rotates tokens on refresh, and the old refresh token is then invalid_grant', async () => {
      const tokens = await oauth.exchangeCode(await authorize());
      const next = await oauth.refresh(tokens.refreshToken);
      expect(next.refreshToken).not.toBe(tokens.refreshToken);
      expect(next.accessToken).not.toBe(tokens.accessToken);
      const error = await caught(oauth.refresh(tokens.refreshToken));
      expect(error).toMatchObject({ kind: 'auth', code: 'invalid_grant', retryable: false });
      expect(error.message).toMatch(/authorize the connector again/);
      expect(error.message).not.toContain(tokens.refreshToken);
      await expect(oauth.refresh(next.refreshToken)).resolves.toMatchObject({
        accessToken: expect.any(String),
      });
    });

    it('marks a refresh whose answer is lost as ambiguous (the rotation happened)', async () => {
      const tokens = await oauth.exchangeCode(await authorize());
      sandbox.state.setFaults({
        timeoutAfterWrite: { 'POST /oauth/token refresh_token': 1 },
        timeoutMs: 5_000,
      });
      const error = await caught(oauthClient({ timeoutMs: 300 }).refresh(tokens.refreshToken));
      expect(error).toMatchObject({ kind: 'transient', ambiguous: true });
      expect(error.message).not.toContain(tokens.refreshToken);
      sandbox.state.clearFaults();
      // The old refresh token died with the lost answer.
      await expect(oauth.refresh(tokens.refreshToken)).rejects.toMatchObject({ code: 'invalid_grant' });
    });

    it('refuses a wrong client secret as invalid_client', async () => {
      const bad = new AtsBOAuthClient(
        {
          clientId: 'platform-client',
          clientSecret: 'not-the-secret',
          redirectUri: REDIRECT_URI,
          oauthUrl: sandbox.oauthUrl,
          restLoginUrl: sandbox.restLoginUrl,
        },
        { guard: SANDBOX },
      );
      const error = await caught(bad.exchangeCode(await authorize()));
      expect(error).toMatchObject({ kind: 'auth', code: 'invalid_client', status: 401 });
      expect(error.message).not.toContain('not-the-secret');
    });

    it('refuses a bad access token at login as auth', async () => {
      const error = await caught(oauth.login('no-such-access-token'));
      expect(error).toMatchObject({ kind: 'auth', code: 'errors.authentication.invalidOAuthToken' });
      expect(error.message).not.toContain('no-such-access-token');
    });

    it('tells where a user is served from (loginInfo)', async () => {
      await expect(oauth.loginInfo('recruiter')).resolves.toEqual({
        oauthUrl: sandbox.oauthUrl,
        restUrl: sandbox.restLoginUrl,
      });
    });
  });

  describe(AtsBClient.name, () => {
    it('asks for a new session once when the session expired, and the call succeeds', async () => {
      const source = sessionSource(await oauth.exchangeCode(await authorize()));
      const own = new AtsBClient({ guard: SANDBOX, session: source.session });
      await own.ping();
      const first = await source.session({});
      sandbox.state.expireSessions();
      await expect(own.ping()).resolves.toEqual({ sessionExpires: expect.any(Number) });
      expect(source.asked).toEqual([undefined, undefined, undefined, first.bhRestToken]);
    });

    it('gives up with auth when the new session is refused too', async () => {
      const session = await oauth.login((await oauth.exchangeCode(await authorize())).accessToken);
      let asked = 0;
      const own = new AtsBClient({
        guard: SANDBOX,
        session: async () => {
          asked++;
          return session;
        },
      });
      sandbox.state.expireSessions();
      const error = await caught(own.ping());
      expect(error).toMatchObject({
        kind: 'auth',
        code: 'errors.authentication.invalidRestToken',
        status: 401,
      });
      expect(asked).toBe(2);
    });

    it('reports 429 as rate_limited, retry in about a second', async () => {
      sandbox.state.setFaults({ force429: 1 });
      const before = Date.now();
      const error = await caught(client.ping());
      expect(error).toMatchObject({ kind: 'rate_limited', status: 429, retryable: true });
      expect(error.retryAt!.getTime()).toBeGreaterThanOrEqual(before + 900);
      expect(error.retryAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1_100);
      await expect(client.ping()).resolves.toBeDefined();
    });

    it('lists every open job id once, page by page', async () => {
      const expected: number[] = [];
      for (let id = 1; id <= 230; id++) {
        const job = sandbox.state.job(id)!;
        if (job.isOpen && !job.isDeleted) expected.push(id);
      }
      const pages: number[][] = [];
      for await (const ids of client.jobOrderIdPages({ pageSize: 50 })) pages.push(ids);
      const all = pages.flat();
      expect(all).toEqual(expected);
      expect(pages.length).toBe(Math.ceil(expected.length / 50));
      expect(pages.slice(0, -1).every((p) => p.length === 50)).toBe(true);
    });

    it('does not lose a job when another closes while listing', async () => {
      const ids = client.jobOrderIdPages({ pageSize: 20 });
      const first = (await ids.next()).value as number[];
      sandbox.state.closeJob(first[0]!);
      const rest: number[] = [];
      for await (const page of ids) rest.push(...page);
      const open: number[] = [];
      for (let id = 1; id <= 230; id++) {
        const job = sandbox.state.job(id)!;
        if (job.isOpen && !job.isDeleted) open.push(id);
      }
      expect([...first.slice(1), ...rest]).toEqual(open);
    });

    it('lists only jobs modified since a date when incremental', async () => {
      const since = new Date(Date.now() - 1);
      const openId = (
        await client.searchJobOrderIds({ query: 'isOpen:1 AND isDeleted:0', start: 5, count: 1 })
      ).data[0]!.id;
      sandbox.state.updateJob(openId, { title: 'Changed title' });
      const changed: number[] = [];
      for await (const ids of client.jobOrderIdPages({ modifiedSince: since })) changed.push(...ids);
      expect(changed).toEqual([openId]);
    });

    it('lists every job changed since a date, whatever its state, when asked for any state', async () => {
      const [a, b, c] = (
        await client.searchJobOrderIds({
          query: 'isOpen:1 AND isDeleted:0 AND isPublic:1',
          start: 10,
          count: 3,
        })
      ).data.map((row) => row.id);
      const since = new Date(Date.now() - 1);
      sandbox.state.closeJob(a!);
      sandbox.state.closeJob(b!, { deleted: true });
      sandbox.state.updateJob(c!, { isPublic: 0 });
      const openOnly: number[] = [];
      for await (const ids of client.jobOrderIdPages({ modifiedSince: since })) openOnly.push(...ids);
      expect(openOnly).toEqual([c]);
      const any: number[] = [];
      for await (const ids of client.jobOrderIdPages({ modifiedSince: since, state: 'any', pageSize: 2 }))
        any.push(...ids);
      expect(any).toEqual([a, b, c]);
      const jobs = await client.getJobOrders(any, ['id', 'isOpen', 'isDeleted', 'isPublic']);
      expect(jobs).toEqual([
        { id: a, isOpen: false, isDeleted: false, isPublic: 1 },
        { id: b, isOpen: true, isDeleted: true, isPublic: 1 },
        { id: c, isOpen: true, isDeleted: false, isPublic: 0 },
      ]);
    });

    it('reads job orders with exactly the fields asked for, one id or many', async () => {
      const ids = Array.from({ length: 150 }, (_, i) => i + 1);
      const jobs = await client.getJobOrders(ids, ['id', 'title', 'clientCorporation']);
      expect(jobs.map((j) => j.id)).toEqual(ids);
      for (const job of jobs) expect(Object.keys(job).sort()).toEqual(['clientCorporation', 'id', 'title']);
      const [one] = await client.getJobOrders([7], ['id', 'isOpen']);
      expect(Object.keys(one!).sort()).toEqual(['id', 'isOpen']);
      await expect(client.getJobOrders([999_999], ['id'])).resolves.toEqual([]);
    });

    it('creates a candidate with work history and education, and finds it by email', async () => {
      const { changedEntityId: candidateId } = await client.createCandidate({
        firstName: 'Zoë',
        lastName: 'Ångström',
        name: 'Zoë Ångström',
        email: 'zoe.b@example.com',
        status: 'New Lead',
        source: 'Platform',
      });
      await client.updateCandidate(candidateId, { mobile: '+44 7700 900001' });
      const { changedEntityId: workId } = await client.createWorkHistory({
        candidate: { id: candidateId },
        companyName: 'Acme',
        title: 'Engineer',
        startDate: Date.UTC(2020, 0, 1),
      });
      const { changedEntityId: educationId } = await client.createEducation({
        candidate: { id: candidateId },
        school: 'Uni',
        degree: 'BSc',
        major: 'Physics',
      });
      const stored = sandbox.state.candidate(candidateId)!;
      expect(stored).toMatchObject({ name: 'Zoë Ångström', mobile: '+44 7700 900001' });
      expect(stored.workHistories.map((w) => w.id)).toEqual([workId]);
      expect(stored.educations.map((e) => e.id)).toEqual([educationId]);

      await expect(client.getCandidate(candidateId, ['id', 'email', 'status'])).resolves.toEqual({
        id: candidateId,
        email: 'zoe.b@example.com',
        status: 'New Lead',
      });
      await expect(client.findCandidateIdsByEmail('ZOE.B@example.com')).resolves.toEqual([candidateId]);
      await expect(client.findCandidateIdsByEmail('nobody@example.com')).resolves.toEqual([]);
    });

    it("reads a candidate's work history and education back as ATS-B holds them", async () => {
      const { changedEntityId: candidateId } = await client.createCandidate({
        name: 'Read Back',
        status: 'Active',
      });
      const { changedEntityId: workId } = await client.createWorkHistory({
        candidate: { id: candidateId },
        companyName: 'Acme',
        title: 'Engineer',
        startDate: Date.UTC(2020, 0, 1),
        endDate: null,
        comments: 'Built things',
      });
      const { changedEntityId: educationId } = await client.createEducation({
        candidate: { id: candidateId },
        school: 'Uni',
        endDate: Date.UTC(2015, 5, 1),
      });
      await expect(client.listCandidateWorkHistories(candidateId)).resolves.toEqual([
        {
          id: workId,
          companyName: 'Acme',
          title: 'Engineer',
          startDate: Date.UTC(2020, 0, 1),
          endDate: null,
          comments: 'Built things',
        },
      ]);
      // Fields never set come back empty (null), not as the wrong record's.
      await expect(client.listCandidateEducations(candidateId)).resolves.toEqual([
        {
          id: educationId,
          school: 'Uni',
          degree: null,
          major: null,
          startDate: null,
          endDate: Date.UTC(2015, 5, 1),
        },
      ]);
      const { changedEntityId: other } = await client.createCandidate({
        name: 'No History',
        status: 'Active',
      });
      await expect(client.listCandidateWorkHistories(other)).resolves.toEqual([]);
      await expect(client.listCandidateEducations(other)).resolves.toEqual([]);
      await expect(caught(client.listCandidateWorkHistories(999_999))).resolves.toMatchObject({
        kind: 'not_found',
      });
    });

    it('reads more work history than the default page, and finds a create whose answer was lost', async () => {
      const { changedEntityId: candidateId } = await client.createCandidate({
        name: 'Long CV',
        status: 'Active',
      });
      for (let i = 0; i < 25; i++) {
        await client.createWorkHistory({
          candidate: { id: candidateId },
          companyName: `Firm ${i}`,
          title: 'Dev',
        });
      }
      const source = sessionSource(await oauth.exchangeCode(await authorize()));
      const slow = new AtsBClient({ guard: SANDBOX, session: source.session, timeoutMs: 300 });
      await slow.ping();
      sandbox.state.setFaults({
        timeoutAfterWrite: { 'PUT entity/CandidateWorkHistory': 1 },
        timeoutMs: 5_000,
      });
      const error = await caught(
        slow.createWorkHistory({ candidate: { id: candidateId }, companyName: 'Lost', title: 'Answer' }),
      );
      expect(error).toMatchObject({ kind: 'transient', ambiguous: true });
      sandbox.state.clearFaults();
      const records = await client.listCandidateWorkHistories(candidateId);
      expect(records).toHaveLength(26);
      expect(records.filter((r) => r.companyName === 'Lost')).toEqual([
        expect.objectContaining({ title: 'Answer', startDate: null, endDate: null, comments: null }),
      ]);
    });

    it('reports a refused candidate as permanent with the detail messages', async () => {
      const error = await caught(client.createCandidate({ name: 'X', status: 'Not A Status' }));
      expect(error).toMatchObject({ kind: 'permanent', status: 400, code: 'errors.cannotPersistEntity' });
      expect(error.atsMessage).toMatch(/status/);
    });

    it('uploads a file as base64 JSON and lists it', async () => {
      const { changedEntityId: candidateId } = await client.createCandidate({
        name: 'File Owner',
        status: 'Active',
      });
      const content = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x10]);
      const { fileId } = await client.uploadCandidateFile(candidateId, {
        externalID: 'doc-123',
        name: 'cv.pdf',
        contentType: 'application/pdf',
        type: 'Resume',
        description: 'CV from the platform',
        content,
      });
      const stored = sandbox.state.filesOf(candidateId);
      expect(stored).toEqual([
        expect.objectContaining({
          id: fileId,
          fileType: 'SAMPLE',
          externalID: 'doc-123',
          sha256: createHash('sha256').update(content).digest('hex'),
        }),
      ]);
      await expect(client.listCandidateFiles(candidateId)).resolves.toEqual([
        { id: fileId, name: 'cv.pdf', type: 'Resume', externalID: 'doc-123' },
      ]);
    });

    it('marks a create whose answer is lost as ambiguous', async () => {
      const source = sessionSource(await oauth.exchangeCode(await authorize()));
      const slow = new AtsBClient({ guard: SANDBOX, session: source.session, timeoutMs: 300 });
      await slow.ping();
      sandbox.state.setFaults({ timeoutAfterWrite: { 'PUT entity/Candidate': 1 }, timeoutMs: 5_000 });
      const error = await caught(
        slow.createCandidate({ name: 'Lost Answer', email: 'lost@example.com', status: 'Active' }),
      );
      expect(error).toMatchObject({ kind: 'transient', ambiguous: true, endpoint: 'PUT entity/Candidate' });
      sandbox.state.clearFaults();
      await expect(client.findCandidateIdsByEmail('lost@example.com')).resolves.toHaveLength(1);
    });

    it('calls the hooks around every request, with the endpoint and the answer', async () => {
      const seen: string[] = [];
      const session = await oauth.login((await oauth.exchangeCode(await authorize())).accessToken);
      const hooked = new AtsBClient({
        guard: SANDBOX,
        session: async () => session,
        hooks: {
          beforeCall: async (endpoint) => {
            seen.push(`before ${endpoint}`);
          },
          afterCall: ({ endpoint, status }) => {
            seen.push(`after ${endpoint} ${status}`);
          },
        },
      });
      await hooked.ping();
      await hooked.getJobOrders([1, 2], ['id']);
      expect(seen).toEqual([
        'before GET ping',
        'after GET ping 200',
        'before GET entity/JobOrder',
        'after GET entity/JobOrder 200',
      ]);
    });
  });
});
