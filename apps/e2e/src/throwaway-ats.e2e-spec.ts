import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConsumeMessage } from 'amqplib';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { AtsSandbox } from '@connector/ats-sandbox-core';
import { createEvent, Exchange, RoutingKey } from '@connector/contracts';
import {
  type CheckoutCopy,
  copyCheckout,
  createSuiteInfrastructure,
  eventually,
  findChromium,
  freePort,
  requestRun,
  type ServiceProcess,
  startService,
  type SuiteInfrastructure,
  tapVacancyRuns,
  TestBroker,
  timesHandled,
  type VacancyRunTaps,
  waitForEvent,
  WORKSPACE_ROOT,
} from '@connector/testing';

/**
 * Two throwaway ATSs, each added to a copy of this checkout from its own folder (libs/ats/testing/throwaway) as
 * docs/adding-an-ats.md says a new ATS is added: the Keys vendor (client credentials) and the Login vendor (an
 * interactive login with its own callback). Nothing else of the copy is edited: the services, the sandbox runner
 * and the admin page run from it and must take both ATSs as they are. The copy's own checks pass; each is
 * connected in the admin page in a real browser, then its vacancies reach the platform and a candidate reaches it
 * once; and the test world's service e2e specs, run in the copy, cover both through their test drivers.
 */
const TEMPLATES = 'libs/ats/testing/throwaway';
const THROWAWAYS = [
  { type: 'tw-keys', adapterExport: 'twKeysAdapter' },
  { type: 'tw-login', adapterExport: 'twLoginAdapter' },
] as const;
const ACCOUNT = 'acct_throwaway';
const KEY = `key-${randomBytes(6).toString('hex')}`;
const CLIENT_SECRET = `tw-secret-${randomBytes(8).toString('hex')}`;
const PASSWORD = `pass-${randomBytes(6).toString('hex')}`;
const WORLD_RESULTS = (root: string) => join(root, 'tmp', 'world-e2e.json');

/** The test world's service e2e specs that run for every registered ATS with these capabilities. */
const WORLD_SPECS = ['apps/e2e/src/candidate-sync.e2e-spec.ts', 'apps/e2e/src/vacancy-sync.e2e-spec.ts'];
const CHROMIUM = findChromium() ?? '/usr/bin/chromium';

// The specs that name a missing place: a stale contract document, a vendor name outside libs/ats, a part
// a capability needs, a sandbox the runner cannot find or compose does not publish, a setting config lacks.
const OWN_CHECKS = [
  'tools/contract-docs.spec.ts',
  'tools/sandboxes.spec.ts',
  'tools/deploy-manifests.spec.ts',
  'libs/ats/registry/src/lib',
  'apps/connector-registry/src/app/connectors/kinds/connector-kinds.spec.ts',
  'apps/connector-registry/src/app/connectors/connector-types.controller.spec.ts',
  'apps/auth-gateway/src/app/credentials/credential-issuers.spec.ts',
  'apps/auth-gateway/src/app/auth-gateway.config.spec.ts',
  'apps/vacancy-sync/src/app/sources/vacancy-sources.spec.ts',
  'apps/candidate-sync/src/app/candidates/candidate-sinks.spec.ts',
  // The adapters' own tests, where the ATSs now live.
  ...THROWAWAYS.map(({ type }) => `libs/ats/${type}`),
];

/** The places outside its folder docs/adding-an-ats.md says adding an ATS touches: its "Measured" table. */
function documentedPlaces(): string[] {
  const doc = readFileSync(join(WORKSPACE_ROOT, 'docs', 'adding-an-ats.md'), 'utf8');
  const section = doc.split('## Measured')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/^\| `([^`]+)` +\|/gm)].map((match) => match[1] as string).sort();
}

interface RunningSandbox {
  url: string;
  process: ChildProcess;
  output: string[];
}

describe('two throwaway ATSs, each added from its own folder', () => {
  let copy: CheckoutCopy;
  let ownChecks: JestRun;
  let worldSpecs: JestRun;
  const touched = new Map<string, string[]>();
  let infra: SuiteInfrastructure;
  const sandboxes = new Map<string, RunningSandbox>();
  const services: ServiceProcess[] = [];
  let registry: ServiceProcess;
  let broker: TestBroker;
  let taps: VacancyRunTaps;
  let synced: ConsumeMessage[];
  let browser: Browser;
  let page: Page;
  const connectorIds = new Map<string, string>();

  /** Its declaration in the copy: what the runner starts and what the services need to reach it. */
  const declarationOf = (type: string): AtsSandbox =>
    (require(join(copy.root, 'libs', 'ats', type, 'sandbox', 'src', 'sandbox')) as { sandbox: AtsSandbox })
      .sandbox;

  /**
   * Jest run in the copy, on its own: without this suite's database, vhost and jest variables (an integration run
   * there resolves its own), and not with spawnSync, so this process goes on reading the services' output.
   */
  interface JestRun {
    process: ChildProcess;
    done: Promise<{ status: number | null; output: string }>;
  }
  const nested: JestRun[] = [];

  /**
   * Jest run in the copy, on its own: without this suite's database, vhost and jest variables (an integration run
   * there resolves its own), and not with spawnSync, so this process goes on reading the services' output.
   */
  function jestInCopy(args: string[]): JestRun {
    const own = /^(JEST|DATABASE_URL$|RABBITMQ_URL$)/;
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !own.test(name)));
    const child = spawn(process.execPath, [require.resolve('jest/bin/jest'), '--ci', ...args], {
      cwd: copy.root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const done = new Promise<{ status: number | null; output: string }>((resolve) =>
      child.once('exit', (status) => resolve({ status, output: output.join('') })),
    );
    const run = { process: child, done };
    nested.push(run);
    return run;
  }

  /** The copy's one sandbox runner (tools/sandboxes.ts) starting `type`'s sandbox, on a port of its own. */
  async function startSandbox(type: string, env: Record<string, string>): Promise<RunningSandbox> {
    const port = await freePort();
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'tools/sandboxes.ts', type], {
      cwd: copy.root,
      env: { ...process.env, ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const url = `http://127.0.0.1:${port}`;
    const { readyPath } = declarationOf(type);
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`the ${type} sandbox exited: ${output.join('')}`);
        return (await fetch(`${url}${readyPath}`)).ok;
      },
      30_000,
      `the ${type} sandbox at ${url}${readyPath}`,
    );
    return { url, process: child, output };
  }

  const sandboxUrl = (type: string) => (sandboxes.get(type) as RunningSandbox).url;
  const statusText = (text: string) => page.getByRole('status').filter({ hasText: text });

  beforeAll(async () => {
    copy = copyCheckout([TEMPLATES]);
    for (const { type, adapterExport } of THROWAWAYS) {
      touched.set(type, copy.addAts({ type, adapterExport, from: join(WORKSPACE_ROOT, TEMPLATES, type) }));
    }
    // Both run in the copy while this suite starts its own system; their tests below wait for them.
    ownChecks = jestInCopy(['-c', 'jest.unit.config.ts', ...OWN_CHECKS]);
    mkdirSync(join(copy.root, 'tmp'), { recursive: true });
    worldSpecs = jestInCopy([
      '-c',
      'jest.integration.config.ts',
      ...WORLD_SPECS,
      // Their cases for these two (the ATS-A and ATS-B cases are theirs; the worlds start all four).
      '-t',
      THROWAWAYS.map(({ type }) => type).join('|'),
      '--json',
      `--outputFile=${WORLD_RESULTS(copy.root)}`,
    ]);
    infra = await createSuiteInfrastructure('e2e_throwaway_ats');
    const registryPort = await freePort();
    const callback = `http://127.0.0.1:${registryPort}/oauth/tw-login/callback`;
    sandboxes.set(
      'tw-keys',
      await startSandbox('tw-keys', { TW_KEYS_SANDBOX_CLIENTS: `tw-client:${CLIENT_SECRET}` }),
    );
    sandboxes.set(
      'tw-login',
      await startSandbox('tw-login', {
        TW_LOGIN_SANDBOX_REDIRECT_URIS: callback,
        TW_LOGIN_SANDBOX_USER: `recruiter:${PASSWORD}`,
      }),
    );
    broker = await TestBroker.connect();
    taps = await tapVacancyRuns(broker);
    synced = await broker.tap(Exchange.ConnectorEvents, RoutingKey.CandidateSynced);

    const common = { ...infra.env, LOG_LEVEL: 'debug' };
    const loginEnv = declarationOf('tw-login').serviceEnv?.(sandboxUrl('tw-login')) ?? {};
    registry = await startService(
      'connector-registry',
      { ...common, ADMIN_API_KEYS: `${ACCOUNT}:${KEY}` },
      90_000,
      registryPort,
      copy.root,
    );
    services.push(registry);
    services.push(
      ...(await Promise.all([
        startService(
          'auth-gateway',
          {
            ...common,
            ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
            ...loginEnv,
            TW_LOGIN_REDIRECT_URI: callback,
          },
          90_000,
          undefined,
          copy.root,
        ),
        startService(
          'vacancy-sync',
          { ...common, SCHEDULER_TICK_MS: '600000', RUN_INLINE_WAIT_MAX_MS: '0' },
          90_000,
          undefined,
          copy.root,
        ),
        startService(
          'candidate-sync',
          { ...common, RETRY_DELAYS_MS: '300,600,1000,2000', ATS_TIMEOUT_MS: '3000' },
          90_000,
          undefined,
          copy.root,
        ),
      ])),
    );
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
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
  }, 240_000);

  afterAll(async () => {
    // Only after a failure are they still running.
    for (const run of nested) if (run.process.exitCode === null) run.process.kill('SIGINT');
    await browser?.close();
    await Promise.all(services.map((service) => service.stop()));
    for (const sandbox of sandboxes.values()) sandbox.process.kill('SIGTERM');
    await broker?.close();
    await infra?.drop();
    copy?.remove();
  }, 60_000);

  it.each(THROWAWAYS.map((t) => t.type))(
    '%s touches only the places docs/adding-an-ats.md lists outside its folder, at most five',
    (type) => {
      const places = documentedPlaces();
      expect(places.length).toBeGreaterThan(0);
      expect(places.length).toBeLessThanOrEqual(5);
      expect(touched.get(type)).toEqual(places);
    },
  );

  it("the copy's own checks take both as they are: contracts, names, parts, sandboxes, deploy files", async () => {
    const { status, output } = await ownChecks.done;
    expect([status, status === 0 ? '' : output.slice(-4000)]).toEqual([0, '']);
  }, 180_000);

  it('the admin page connects the Keys vendor with its client credentials: test, then save', async () => {
    await page.goto(`${registry.url}/admin`);
    await page.getByLabel('Admin API key').fill(KEY);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Connectors' }).waitFor();

    await page.getByRole('button', { name: 'Add a connector' }).click();
    await page.getByLabel('Keys vendor').check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Connect Keys vendor' }).waitFor();
    await page.getByLabel('Connector name').fill('Throwaway keys');
    await page.getByLabel('Address').fill(sandboxUrl('tw-keys'));
    await page.getByLabel('Client ID').fill('tw-client');
    await page.getByLabel('Client secret').fill('not-the-secret');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByRole('alert').filter({ hasText: 'refused the client ID or client secret' }).waitFor();

    await page.getByLabel('Client secret').fill(CLIENT_SECRET);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await statusText('The connection works').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await statusText('Connection successful: “Throwaway keys” is connected to Keys vendor.').waitFor();
    connectorIds.set('tw-keys', new URL(page.url()).pathname.split('/').pop() as string);
  });

  it('the admin page connects the Login vendor through its own sign-in and its own callback', async () => {
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Connectors' })
      .click();
    await page.getByRole('button', { name: 'Add a connector' }).click();
    await page.getByLabel('Login vendor').check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Connect Login vendor' }).waitFor();
    await page.getByLabel('Connector name').fill('Throwaway login');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Authorize access to Login vendor' }).waitFor();

    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Authorize', exact: true }).click(),
    ]);
    await popup.getByLabel('Username').waitFor();
    expect(popup.url().startsWith(`${sandboxUrl('tw-login')}/oauth/authorize`)).toBe(true);
    await popup.getByLabel('Username').fill('recruiter');
    await popup.getByLabel('Password').fill(PASSWORD);
    const callbacks: string[] = [];
    popup.on('request', (request) => {
      if (request.url().includes('/callback')) callbacks.push(new URL(request.url()).pathname);
    });
    await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Sign in' }).click()]);
    expect(callbacks).toEqual(['/oauth/tw-login/callback']);
    await statusText('Connection successful: “Throwaway login” is connected to Login vendor.').waitFor();
    connectorIds.set('tw-login', new URL(page.url()).pathname.split('/').pop() as string);
  });

  it.each(THROWAWAYS.map((t) => t.type))(
    '%s: a run publishes each of its open vacancies as vacancy.upserted, none of the others',
    async (type) => {
      const connectorId = connectorIds.get(type);
      if (!connectorId) throw new Error(`${type} was not connected in the admin page`);
      const outcome = await requestRun(broker, taps, { accountId: ACCOUNT, connectorId });
      expect(outcome.completed.status).toBe('succeeded');
      const expected =
        type === 'tw-keys'
          ? // 12 jobs from 1001, every fifth filled, every seventh not listed on the careers site
            Array.from({ length: 12 }, (_, i) => i)
              .filter((i) => i % 5 !== 4 && i % 7 !== 6)
              .map((i) => String(1001 + i))
          : // 10 openings from OP-101, every fourth closed, every fifth internal
            Array.from({ length: 10 }, (_, i) => i)
              .filter((i) => i % 4 !== 3 && i % 5 !== 4)
              .map((i) => `OP-${101 + i}`);
      expect(outcome.upserts.map((u) => u.externalId).sort()).toEqual(expected.sort());
      for (const upsert of outcome.upserts) {
        expect(upsert).toMatchObject({ connectorId, atsType: type });
        expect(upsert.title).not.toBe('');
      }
    },
    90_000,
  );

  it('a candidate reaches each throwaway ATS once, whatever the redeliveries', async () => {
    const id = randomUUID().slice(0, 8);
    const email = `grace.${id}@example.com`;
    const data = {
      candidateId: `cand-${id}`,
      firstName: 'Grace',
      lastName: 'Hopper',
      email,
      phone: '+1 555 0100',
    };
    const created = createEvent(RoutingKey.CandidateCreated, ACCOUNT, data);
    broker.publish(Exchange.PlatformEvents, created.type, created);
    broker.publish(Exchange.PlatformEvents, created.type, created); // redelivered
    for (const { type } of THROWAWAYS) {
      await waitForEvent(() => synced, RoutingKey.CandidateSynced, created.id, {
        connectorId: connectorIds.get(type),
      });
    }
    const inKeys = async () =>
      (
        (await (await fetch(`${sandboxUrl('tw-keys')}/__sandbox/people`)).json()) as {
          people: Array<{ email: string; first_name: string }>;
        }
      ).people.filter((p) => p.email === email);
    const inLogin = async () =>
      (
        (await (await fetch(`${sandboxUrl('tw-login')}/__sandbox/applicants`)).json()) as {
          applicants: Array<{ emails: string[]; name: { first: string } }>;
        }
      ).applicants.filter((a) => a.emails.includes(email));
    expect((await inKeys()).map((p) => p.first_name)).toEqual(['Grace']);
    expect((await inLogin()).map((a) => a.name.first)).toEqual(['Grace']);

    // Redelivered later, after both were written: still one record in each.
    broker.publish(Exchange.PlatformEvents, created.type, created);
    await eventually(
      () => timesHandled(services, RoutingKey.CandidateCreated, created.id) >= 3,
      20_000,
      'candidate-sync handling the third delivery',
    );
    expect(await inKeys()).toHaveLength(1);
    expect(await inLogin()).toHaveLength(1);
  }, 60_000);

  it("the test world's service e2e runs for both, as for every ATS with the capability, and they pass it", async () => {
    const { status, output } = await worldSpecs.done;
    expect([status, status === 0 ? '' : output.slice(-4000)]).toEqual([0, '']);
    const { testResults } = JSON.parse(readFileSync(WORLD_RESULTS(copy.root), 'utf8')) as {
      testResults: Array<{
        name: string;
        assertionResults: Array<{ ancestorTitles: string[]; status: string }>;
      }>;
    };
    for (const spec of WORLD_SPECS) {
      const ran = (testResults.find((file) => file.name.endsWith(spec))?.assertionResults ?? []).filter(
        (test) => test.status !== 'pending',
      );
      for (const { type } of THROWAWAYS) {
        const own = ran.filter((test) => test.ancestorTitles.includes(type));
        const failed = own.filter((test) => test.status !== 'passed');
        expect([spec, type, own.length > 3, failed]).toEqual([spec, type, true, []]);
      }
    }
  }, 300_000);
});
