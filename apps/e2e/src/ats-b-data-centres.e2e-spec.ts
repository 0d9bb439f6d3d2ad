import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Client } from 'pg';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import { type CandidateDataDto, createEvent, Exchange, RoutingKey } from '@connector/contracts';
import { RabbitConnection, RpcClient, RpcError } from '@connector/messaging';
import { authorizeAtsB } from '@connector/service-stubs';
import {
  eventually,
  findChromium,
  requestRun,
  tapVacancyRuns,
  type ServiceProcess,
  type VacancyRunTaps,
} from '@connector/testing';
import { type TestWorld, testWorld } from '@connector/test-world';

/**
 * ATS-B customers in another data centre than the configured one (docs/ats-b.md "Data centres"): the ATS-B
 * sandbox as the vendor with a router (the configured addresses) and two data centres, each with its own users,
 * codes, tokens, sessions and data. The recruiter lives in the second one. Everything over HTTP, RabbitMQ and
 * Postgres, the admin page in a real browser. Data centres are ATS-B's: the whole suite is ATS-B's, on the test
 * world with a sandbox of its own options; the refused redirect is checked against auth-gateway directly.
 */
const CHROMIUM = findChromium() ?? '/usr/bin/chromium';
const ACCOUNT = 'acct_data_centres';
const KEY = `key-${randomBytes(6).toString('hex')}`;
const PASSWORD = `pass-${randomBytes(6).toString('hex')}`;
const EMEA_USER = { username: 'emea-recruiter', password: PASSWORD };
const STEP_MS = 20_000;

/** A call the sandbox answered, by listener: `router`, `us` or `emea` (its log has no query strings). */
interface SandboxCall {
  dataCentre: string;
  method: string;
  path: string;
  status: number;
}

describe('ATS-B in a second data centre', () => {
  let world: TestWorld;
  let atsB: RunningAtsBSandbox;
  let registry: ServiceProcess;
  let gateway: ServiceProcess;
  let taps: VacancyRunTaps;
  let browser: Browser;
  let page: Page;
  let connectorId = '';

  const emea = () => atsB.dataCentre('emea');
  const us = () => atsB.dataCentre('us');
  const sandboxCalls = async (): Promise<SandboxCall[]> =>
    ((await (await fetch(`${atsB.url}/__sandbox/calls`)).json()) as { log: SandboxCall[] }).log;
  const resetSandboxCalls = () => fetch(`${atsB.url}/__sandbox/calls/reset`, { method: 'POST' });
  const authCalls = (calls: SandboxCall[]) =>
    calls
      .filter((c) => c.path === '/oauth/token' || c.path === '/rest-services/login')
      .map((c) => `${c.dataCentre} ${c.method} ${c.path} ${c.status}`);

  async function sql<T extends object>(query: string, values: unknown[] = []): Promise<T[]> {
    const db = new Client({ connectionString: world.env.DATABASE_URL });
    await db.connect();
    try {
      return (await db.query<T>(query, values)).rows;
    } finally {
      await db.end();
    }
  }

  beforeAll(async () => {
    // auth-gateway gets the vendor-wide router's addresses from the sandbox, as in production: nothing of the
    // data centres is configured.
    world = await testWorld({
      name: 'e2e_ats_b_data_centres',
      services: ['connector-registry', 'auth-gateway', 'vacancy-sync', 'candidate-sync'],
      registry: 'real',
      env: { LOG_LEVEL: 'debug' },
      serviceEnv: {
        'connector-registry': { ADMIN_API_KEYS: `${ACCOUNT}:${KEY}`, VACANCY_SYNC_TIMEOUT_MS: '3000' },
        'vacancy-sync': { SCHEDULER_TICK_MS: '60000', RUN_INLINE_WAIT_MAX_MS: '0' },
      },
      sandboxes: ['ats-b'],
      vendorSandboxOptions: {
        'ats-b': {
          dataCentres: [{ name: 'us' }, { name: 'emea' }],
          users: [
            { username: 'recruiter', password: PASSWORD, dataCentre: 'us' },
            { ...EMEA_USER, dataCentre: 'emea' },
          ],
          seed: { jobs: 12, seed: 4 },
          // Shorter than the gateway's renewal margin: every renewal spends the refresh token.
          accessTokenTtlSeconds: 30,
        },
      },
      tap: [Exchange.ConnectorEvents],
    });
    atsB = world.sandbox('ats-b').running as RunningAtsBSandbox;
    registry = world.service('connector-registry');
    gateway = world.service('auth-gateway');
    taps = await tapVacancyRuns(world.broker);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
      ],
    });
    const context = await browser.newContext();
    context.setDefaultTimeout(STEP_MS);
    page = await context.newPage();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await world?.close();
  }, 60_000);

  it("connects in the admin page's browser flow: router login → 307 → the user's data centre → callback", async () => {
    await page.goto(`${registry.url}/admin`);
    await page.getByLabel('Admin API key').fill(KEY);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Add a connector' }).click();
    await page.getByLabel('ATS-B').check();
    await page.keyboard.press('Enter');
    await page.getByLabel('Connector name').fill('EMEA ATS-B');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Authorize access to ATS-B' }).waitFor();
    await resetSandboxCalls();

    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Authorize', exact: true }).click(),
    ]);
    await popup.getByLabel('Username').waitFor();
    // The login page is the router's: the configured address, which knows no user.
    expect(popup.url().startsWith(atsB.oauthUrl)).toBe(true);
    await popup.getByLabel('Username').fill(EMEA_USER.username);
    await popup.getByLabel('Password').fill(EMEA_USER.password);
    await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Sign in' }).click()]);
    await page
      .getByRole('status')
      .filter({ hasText: 'Connection successful: “EMEA ATS-B” is connected to ATS-B.' })
      .waitFor()
      .catch((error: Error) => {
        throw new Error(`not connected: ${error.message}\n${gateway.output.slice(-15).join('\n')}`);
      });

    const calls = await sandboxCalls();
    // The browser's form went to the router and was sent on to EMEA, which issued the code.
    expect(calls).toEqual(
      expect.arrayContaining([
        { dataCentre: 'router', method: 'POST', path: '/oauth/authorize', status: 307 },
        { dataCentre: 'emea', method: 'POST', path: '/oauth/authorize', status: 302 },
      ]),
    );
    // The gateway's code exchange and REST login met the router's 307 and followed it to EMEA.
    expect(authCalls(calls)).toEqual([
      'router POST /oauth/token 307',
      'emea POST /oauth/token 200',
      'router POST /rest-services/login 307',
      'emea POST /rest-services/login 200',
    ]);
    expect(calls.some((c) => c.dataCentre === 'us')).toBe(false);
    [{ id: connectorId }] = await sql<{ id: string }>(`SELECT id FROM connector WHERE name = 'EMEA ATS-B'`);
  });

  it("syncs: the vacancies of the user's data centre reach the platform", async () => {
    emea().state.updateJob(1, { title: 'Only in EMEA', isOpen: true, isPublic: 1, isDeleted: false });
    const run = await requestRun(world.broker, taps, { accountId: ACCOUNT, connectorId });
    expect(run.completed.status).toBe('succeeded');
    expect(run.upserts.map((u) => u.title)).toContain('Only in EMEA');
    expect(run.upserts.every((u) => u.connectorId === connectorId)).toBe(true);
    const data = (await sandboxCalls()).filter(
      (c) => c.path.startsWith('/rest-services/') && c.path !== '/rest-services/login',
    );
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((c) => c.dataCentre === 'emea')).toBe(true);
  });

  it('refreshes across an auth-gateway restart, straight at the data centre', async () => {
    await gateway.stop();
    gateway = await world.startService('auth-gateway');
    // The session dies: the worker's next call is refused, the gateway must refresh (its access token is too
    // short-lived to log in with again) and log in, from what it kept in the database alone.
    emea().state.expireSessions();
    await resetSandboxCalls();
    emea().state.updateJob(2, { title: 'Changed after the restart' });

    const run = await requestRun(world.broker, taps, { accountId: ACCOUNT, connectorId });
    expect(run.completed.status).toBe('succeeded');
    expect(run.upserts.map((u) => u.title)).toContain('Changed after the restart');
    const calls = await sandboxCalls();
    expect(authCalls(calls)).toEqual(['emea POST /oauth/token 200', 'emea POST /rest-services/login 200']);
    expect(calls.filter((c) => c.dataCentre !== 'emea')).toEqual([]);
    expect(gateway.output.some((line) => line.includes(`renewed access for connector ${connectorId}`))).toBe(
      true,
    );
  });

  it('receives a candidate: candidate-sync creates it in the data centre', async () => {
    const id = randomUUID().slice(0, 8);
    const candidate: CandidateDataDto = {
      candidateId: `cand-${id}`,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: `ada.${id}@example.com`,
    };
    const created = createEvent(RoutingKey.CandidateCreated, ACCOUNT, candidate);
    world.broker.publish(Exchange.PlatformEvents, created.type, created);
    const synced = await world.eventFor(RoutingKey.CandidateSynced, created.id, { connectorId });
    expect(synced.data).toMatchObject({ candidateId: candidate.candidateId, action: 'created' });
    const inEmea = await eventually(
      () =>
        emea()
          .state.candidates()
          .find((c) => c.email === candidate.email),
      10_000,
      'the candidate in the EMEA data centre',
    );
    expect(inEmea.id).toBe(Number(synced.data.externalId));
    expect(
      us()
        .state.candidates()
        .some((c) => c.email === candidate.email),
    ).toBe(false);
  });

  describe('a redirect outside the vendor hosts', () => {
    /** What reached the host outside the allow-list: nothing, ever. */
    const leaked: string[] = [];
    let catcher: Server;
    let hostile: Server;
    let hostileGateway: ServiceProcess;

    const listen = async (server: Server) => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as { port: number }).port;
    };

    beforeAll(async () => {
      catcher = createServer((req: IncomingMessage, res) => {
        leaked.push(`${req.method} ${req.url}`);
        res.end('{}');
      });
      const catcherPort = await listen(catcher);
      // Stands where the vendor's router is configured (an allowed host) and sends every call to
      // http://localhost:<port>, a host no setting allows, query and all.
      hostile = createServer((req, res) => {
        res.writeHead(307, { location: `http://localhost:${catcherPort}${req.url ?? '/'}` }).end();
      });
      const hostilePort = await listen(hostile);
      await gateway.stop();
      hostileGateway = await world.startService('auth-gateway', {
        ATS_B_OAUTH_URL: `http://127.0.0.1:${hostilePort}/oauth`,
        // The recruiter still logs in at the vendor's page.
        ATS_B_AUTHORIZE_URL: `${atsB.oauthUrl}/authorize`,
      });
      gateway = hostileGateway;
    }, 60_000);

    afterAll(async () => {
      await new Promise((resolve) => catcher?.close(resolve));
      await new Promise((resolve) => hostile?.close(resolve));
    });

    it('is refused, logged by host, and neither the code nor the client secret reaches that host', async () => {
      const connection = new RabbitConnection({ url: world.env.RABBITMQ_URL, name: 'e2e-data-centres' });
      const rpc = new RpcClient(connection, 'connector-registry');
      try {
        const error = await authorizeAtsB(rpc, ACCOUNT, randomUUID(), EMEA_USER).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(RpcError);
        expect((error as RpcError).message).toMatch(
          /redirect to localhost:\d+\): refused, not one of its allowed hosts/,
        );
      } finally {
        await rpc.close();
        await connection.close();
      }
      expect(leaked).toEqual([]);
      const refusal = hostileGateway.output.filter((line) =>
        line.includes('refused the address at localhost:'),
      );
      expect(refusal).toHaveLength(1);
      const logs = hostileGateway.output.join('\n');
      expect(logs).not.toContain('platform-secret');
      expect(logs).not.toMatch(/code=|client_secret=/);
    });
  });
});
