import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { RunningAtsASandbox } from '@connector/ats-a-sandbox';
import type { RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import { findChromium, freePort, WORKSPACE_ROOT, type ServiceProcess } from '@connector/testing';
import { type TestWorld, testWorld } from '@connector/test-world';

/**
 * The admin page in a real browser (Debian's chromium driven by playwright-core): sign-in, both set-up flows
 * with the ATS-B login popup, the Mapping tab and a Run, against the registry, auth-gateway and vacancy-sync
 * as processes and the ATS sandboxes (one test world; each set-up flow is its vendor's, so the sandboxes are
 * named, with the suite's own logins). Each step is saved as a screenshot: into a temporary folder, or into
 * docs/screenshots/ when run with UPDATE_SCREENSHOTS=1 (so a plain test run leaves the tree as it was).
 */
// `npm test` makes sure there is one (tools/ensure-test-tools.ts); CHROMIUM_PATH may name another.
const CHROMIUM = findChromium() ?? '/usr/bin/chromium';
const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? join(WORKSPACE_ROOT, 'docs', 'screenshots')
    : mkdtempSync(join(tmpdir(), 'admin-page-shots-'));
const KEY = `key-${randomBytes(6).toString('hex')}`;
const CLIENT_SECRET = `ats-a-secret-${randomBytes(8).toString('hex')}`;
const USER_PASSWORD = `pass-${randomBytes(6).toString('hex')}`;
const STEP_MS = 15_000;

describe('the admin page in a browser', () => {
  let world: TestWorld;
  let atsA: RunningAtsASandbox;
  let atsB: RunningAtsBSandbox;
  let registry: ServiceProcess;
  let vacancySync: ServiceProcess;
  let atsAConnectorId = '';
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  const shot = (name: string, target: Page = page) =>
    target.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const alert = (text: string | RegExp) => page.getByRole('alert').filter({ hasText: text });
  const statusText = (text: string | RegExp) => page.getByRole('status').filter({ hasText: text });
  /**
   * What `expression` says of the focused element, once focus has landed as `expected` (it moves after a
   * render). Polled from here: `waitForFunction` with a string polls inside the page by evaluating it, which
   * the page's CSP (no 'unsafe-eval') rightly refuses, and the refusal shows up as a page error.
   */
  const focused = async (expression: string, expected: string) => {
    const deadline = Date.now() + 5_000;
    let value = await page.evaluate(expression);
    while (value !== expected && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      value = await page.evaluate(expression);
    }
    return value;
  };

  async function sql(query: string): Promise<void> {
    const db = new Client({ connectionString: world.env.DATABASE_URL });
    await db.connect();
    try {
      await db.query(query);
    } finally {
      await db.end();
    }
  }

  /** Starts a run from the Overview tab and waits for it to finish; returns the counts the page shows. */
  async function runAndWait(shotWhileRunning?: string): Promise<Record<string, number>> {
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const progress = page.locator('.run-progress');
    // The previous run's result stays on the page until it has the new run: wait for the new one first.
    await page.locator('.run-progress.run-queued, .run-progress.run-running').waitFor({ timeout: STEP_MS });
    if (shotWhileRunning) await shot(shotWhileRunning);
    await page
      .locator('.run-progress.run-succeeded, .run-progress.run-failed')
      .waitFor({ timeout: 30_000 })
      .catch(async (error: Error) => {
        await shot('zz-run-did-not-finish');
        throw new Error(
          `the run did not finish on the page: ${error.message}\n${world.processes.flatMap((s) => s.output.slice(-5)).join('\n')}`,
        );
      });
    const counts: Record<string, number> = {};
    for (const key of ['fetched', 'upserted', 'unchanged', 'closed', 'apiCalls']) {
      counts[key] = Number(await progress.locator(`[data-count="${key}"]`).textContent());
    }
    expect(await progress.getAttribute('class')).toContain('run-succeeded');
    return counts;
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    world = await testWorld({
      name: 'e2e_admin_page',
      services: ['connector-registry', 'auth-gateway', 'vacancy-sync'],
      registry: 'real',
      serviceEnv: {
        'connector-registry': { ADMIN_API_KEYS: `acct_page:${KEY}`, VACANCY_SYNC_TIMEOUT_MS: '3000' },
        'vacancy-sync': { SCHEDULER_TICK_MS: '60000', RUN_INLINE_WAIT_MAX_MS: '0' },
      },
      sandboxes: ['ats-a', 'ats-b'],
      vendorSandboxOptions: {
        'ats-a': {
          clients: [{ clientId: 'page-client', clientSecret: CLIENT_SECRET }],
          // The sandbox's own daily limit, which the page shows (the driver's is out of reach).
          dailyLimit: 10_000,
          seed: { vacancies: 12, seed: 4 },
        },
        'ats-b': { users: [{ username: 'recruiter', password: USER_PASSWORD }], seed: { jobs: 12, seed: 4 } },
      },
    });
    atsA = world.sandbox('ats-a').running as RunningAtsASandbox;
    atsB = world.sandbox('ats-b').running as RunningAtsBSandbox;
    registry = world.service('connector-registry');
    vacancySync = world.service('vacancy-sync');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(STEP_MS);
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      // The refused key and credentials are expected 401/422 answers; anything else is a fault of the page.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
        pageErrors.push(message.text());
      }
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  it('signs in with the API key; a wrong key says so; no data without it', async () => {
    await page.goto(`${registry.url}/admin`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.locator('table').count()).toBe(0);
    await shot('01-sign-in');

    await page.getByLabel('Admin API key').fill('not-the-key');
    await page.keyboard.press('Enter');
    await alert('That API key was not accepted').waitFor();
    expect(await page.getByLabel('Admin API key').getAttribute('aria-invalid')).toBe('true');
    await shot('02-sign-in-wrong-key');

    await page.getByLabel('Admin API key').fill(KEY);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Connectors' }).waitFor();
    await page.getByText('No connectors yet.').waitFor();
    await shot('03-connectors-empty');
  });

  it('ATS-A: + → ATS-A → wrong secret refused, unreachable address, then test → save → confirmation', async () => {
    await page.getByRole('button', { name: 'Add a connector' }).click();
    await page.getByRole('heading', { name: 'Add a connector' }).waitFor();
    await page.getByLabel('ATS-A').check();
    await shot('04-add-connector');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Connect ATS-A' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/connectors/new/ats-a');

    await page.getByLabel('Connector name').fill('Acme ATS-A');
    await page.getByLabel('Base API URL').fill(atsA.url);
    await page.getByLabel('Client ID').fill('page-client');
    await page.getByLabel('Client secret').fill('wrong-secret');
    // Keyboard: Tab goes from one field to the next; Enter runs the connection test.
    await page.getByLabel('Base API URL').focus();
    await page.keyboard.press('Tab');
    expect(await focused('document.activeElement?.id', 'clientId')).toBe('clientId');
    await page.keyboard.press('Enter');
    const refused = alert('ATS-A refused these credentials');
    await refused.waitFor();
    expect(await refused.textContent()).toMatch(/client ID or client secret.*Settings → API keys/);
    expect(await page.getByLabel('Client secret').getAttribute('aria-invalid')).toBe('true');
    await shot('05-ats-a-wrong-secret');

    // Saving anyway is refused too, and nothing is saved.
    await page.getByRole('button', { name: 'Save' }).click();
    await alert('ATS-A refused these credentials').waitFor();

    const closedPort = await freePort();
    await page.getByLabel('Base API URL').fill(`http://127.0.0.1:${closedPort}`);
    await page.getByLabel('Client secret').fill(CLIENT_SECRET);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await alert('could not be reached').waitFor();
    expect(await alert('could not be reached').textContent()).toContain('Check the base API URL');
    expect(await page.getByLabel('Base API URL').getAttribute('aria-invalid')).toBe('true');
    await shot('06-ats-a-unreachable');

    await page.getByLabel('Base API URL').fill(atsA.url);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await statusText('The connection works').waitFor();
    expect(await focused('document.activeElement?.textContent', 'Save')).toBe('Save');
    await shot('07-ats-a-test-ok');

    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Acme ATS-A' }).waitFor();
    await statusText('Connection successful: “Acme ATS-A” is connected to ATS-A.').waitFor();
    expect(await page.locator('.badge').textContent()).toBe('Connected');
    atsAConnectorId = new URL(page.url()).pathname.split('/').pop() as string;
    await shot('08-ats-a-connected');
  });

  it('ATS-A: the Mapping tab shows the mapping, refuses an invalid one with its reasons, previews vacancies', async () => {
    await page.getByRole('navigation', { name: 'Connector' }).getByRole('link', { name: 'Mapping' }).click();
    await page.getByRole('heading', { name: 'Job mapping' }).waitFor();
    const titleSource = page.getByLabel('ATS-A field for Title');
    expect(await titleSource.inputValue()).toBe('Title');
    await titleSource.fill('NoSuchField');
    await page.getByRole('button', { name: 'Save mapping' }).click();
    const problem = alert('The mapping was not saved');
    await problem.waitFor();
    expect(await problem.textContent()).toContain('fields.title.from: unknown source path "NoSuchField"');
    expect(await titleSource.getAttribute('aria-invalid')).toBe('true');
    await shot('09-mapping-invalid');

    await titleSource.fill('Title');
    // An extra field with a fixed text, added with the form.
    await page.getByRole('button', { name: 'Add a field' }).click();
    expect(
      await focused("document.activeElement?.getAttribute('aria-label')", 'Name of the extra field'),
    ).toBe('Name of the extra field');
    await page.keyboard.type('source');
    await page.getByLabel('Where source comes from').selectOption('constant');
    await page.getByLabel('Fixed text for source').fill('ATS-A');
    await page.getByRole('button', { name: 'Save mapping' }).click();
    await statusText('Mapping saved as version 2.').waitFor();

    await page.getByRole('button', { name: 'Preview with live vacancies' }).click();
    await page
      .locator('table.preview')
      .or(alert(/preview/i))
      .waitFor({ timeout: 25_000 });
    const previewShown = await page.locator('table.preview').count();
    if (previewShown === 0) {
      throw new Error(`no preview table: ${await page.locator('.problem').last().textContent()}`);
    }
    expect(await page.locator('table.preview tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('table.preview').textContent()).toContain('source: ATS-A');
    await shot('10-mapping-preview');
  });

  it('ATS-A: Run shows live progress and the counts', async () => {
    await page.getByRole('navigation', { name: 'Connector' }).getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Run', exact: true }).waitFor();
    const counts = await runAndWait('11-ats-a-run-started');
    expect(counts.fetched).toBeGreaterThan(0);
    expect(counts.upserted).toBeGreaterThan(0);
    expect(counts.apiCalls).toBeGreaterThan(0);
    expect(
      await page
        .locator('#runs-title + table tbody tr, section[aria-labelledby="runs-title"] tbody tr')
        .count(),
    ).toBe(1);
    // The finished run says when the connector's next scheduled run is (vacancy-sync's schedule, not a guess).
    const next = page.locator('.run-progress [data-next-run]');
    await next.waitFor({ timeout: STEP_MS });
    expect(await next.textContent()).toMatch(/^Next scheduled run (due now|\S.*\d)/);
    await shot('12-ats-a-run-done');
  });

  it('ATS-A: a run that looks wrong says so in plain words, under the run and in the run list', async () => {
    // A status name this ATS does not offer (set through the admin API, as an integration would).
    const patched = await fetch(`${registry.url}/api/v1/connectors/${atsAConnectorId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ options: { openStatuses: ['Open', 'Live', 'Advertised'] } }),
    });
    expect(patched.status).toBe(200);
    await page.reload();
    await page.getByRole('heading', { name: 'Run', exact: true }).waitFor();
    await runAndWait();
    const warning = page.locator('.run-progress .run-warnings li[data-warning="UNKNOWN_STATUSES"]');
    await warning.waitFor({ timeout: STEP_MS });
    expect(await warning.textContent()).toMatch(
      /does not offer the vacancy status “Advertised”.*It offers: “Draft”/,
    );
    expect(await page.locator('.run-warning').first().textContent()).toContain('Worth checking:');
  });

  it('ATS-B: + → ATS-B, API (OAuth), Send Smart CV → Save → Authorize in the login popup → connected → Run', async () => {
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Connectors' })
      .click();
    await page.getByRole('button', { name: 'Add a connector' }).click();
    await page.getByLabel('ATS-B').check();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Connect ATS-B' }).waitFor();
    await page.getByLabel('Connector name').fill('Acme ATS-B');
    expect(await page.getByLabel('API (OAuth)').isChecked()).toBe(true);
    await page.getByLabel('Send Smart CV').check();
    await shot('13-ats-b-form');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Acme ATS-B' }).waitFor();
    expect(await page.locator('.badge').textContent()).toBe('Waiting for authorization');
    await page.getByRole('heading', { name: 'Authorize access to ATS-B' }).waitFor();
    await shot('14-ats-b-saved');

    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Authorize', exact: true }).click(),
    ]);
    await popup.getByLabel('Username').waitFor();
    expect(popup.url().startsWith(atsB.oauthUrl)).toBe(true);
    await popup.getByLabel('Username').fill('recruiter');
    await popup.getByLabel('Password').fill(USER_PASSWORD);
    await shot('15-ats-b-login-popup', popup);
    await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Sign in' }).click()]);

    await statusText('Connection successful: “Acme ATS-B” is connected to ATS-B.').waitFor();
    await page.locator('.badge', { hasText: 'Connected' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Authorize access to ATS-B' }).count()).toBe(0);
    await shot('16-ats-b-connected');

    const counts = await runAndWait();
    expect(counts.fetched).toBeGreaterThan(0);
    await shot('17-ats-b-run-done');
    // Its first run done, vacancy-sync subscribes it to ATS-B's events; the Run card (refreshed every 15 s) says so.
    await page
      .locator('[data-event-feed="events"]', { hasText: 'On events' })
      .waitFor({ timeout: 45_000 })
      .catch((error: unknown) => {
        throw new Error(`the Run card never said "On events" for the ATS-B connector: ${String(error)}`);
      });
  });

  it("a connector's recent failures are listed with their reasons", async () => {
    // Two dead letters as the failure log keeps them (one bad message, one that ran out of retries).
    const failedAt = new Date(Date.now() - 60_000).toISOString();
    await sql(`INSERT INTO dead_letter (id, queue, routing_key, message_id, account_id, connector_id, type, body,
        reasons, retryable, failed_at)
      VALUES (gen_random_uuid(), 'candidate-sync', 'candidate.created', 'm-1', 'acct_page', '${atsAConnectorId}',
        'candidate.created', '\\x7b7d', '["data.email: must be an email address"]', false, '${failedAt}'),
      (gen_random_uuid(), 'document-service', 'document.uploaded', 'm-2', 'acct_page', '${atsAConnectorId}',
        'document.uploaded', '\\x7b7d', '["ATS-A answered 503 for 80 minutes (7 tries)"]', true, '${failedAt}')`);
    await page.goto(`${registry.url}/admin/connectors/${atsAConnectorId}`);
    const failures = page.locator('section[aria-labelledby="failures-title"]');
    await failures.getByText('data.email: must be an email address').waitFor();
    await failures.getByText('ATS-A answered 503 for 80 minutes (7 tries)').waitFor();
    expect(await failures.getByRole('button', { name: /^Replay the failed Document \(CV\)/ }).count()).toBe(
      1,
    );
    await shot('19-ats-a-failures');
  });

  it("ATS-A: the activity of the last 14 days is drawn from the connector's days, failures marked", async () => {
    // Earlier days as the registry would have counted them: runs, records written, a failed message.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const at = (offset: number) => `${day(offset)}T12:00:00Z`;
    for (const [offset, calls, upserted, closed, status] of [
      [-12, 40, 12, 0, 'succeeded'],
      [-9, 25, 4, 1, 'succeeded'],
      [-6, 31, 7, 2, 'succeeded'],
      [-4, 6, 0, 0, 'failed'],
      [-2, 18, 3, 0, 'succeeded'],
    ] as const) {
      await sql(`INSERT INTO run (id, connector_id, account_id, status, mode, counts, api_calls, errors, queued_at,
          started_at, finished_at)
        VALUES (gen_random_uuid(), '${atsAConnectorId}', 'acct_page', '${status}', 'incremental',
          '{"fetched":${upserted + 3},"upserted":${upserted},"unchanged":3,"closed":${closed}}', ${calls}, '[]',
          '${at(offset)}', '${at(offset)}', '${at(offset)}')`);
    }
    for (const [offset, written] of [
      [-11, 9],
      [-8, 14],
      [-6, 6],
      [-3, 11],
      [-1, 4],
    ] as const) {
      await sql(`INSERT INTO connector_activity (connector_id, day, records_written)
        VALUES ('${atsAConnectorId}', '${day(offset)}', ${written})`);
    }
    await sql(`INSERT INTO dead_letter (id, queue, routing_key, message_id, account_id, connector_id, type, body,
        reasons, retryable, failed_at)
      VALUES (gen_random_uuid(), 'candidate-sync', 'candidate.created', 'm-old', 'acct_page', '${atsAConnectorId}',
        'candidate.created', '\\x7b7d', '["ATS-A answered 503 for 80 minutes (7 tries)"]', true, '${at(-8)}')`);
    const api = await fetch(`${registry.url}/api/v1/connectors/${atsAConnectorId}/activity`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    const { days } = (await api.json()) as {
      days: Array<{
        day: string;
        apiCalls: number;
        vacanciesPublished: number;
        recordsWritten: number;
        failures: number;
      }>;
    };
    expect(days).toHaveLength(14);
    // Lately (today, or yesterday just after midnight): the runs above and the failures of the test before.
    const lately = days.slice(-2);
    expect(days.at(-1)?.day).toBe(day(0));
    expect(lately.reduce((sum, d) => sum + d.apiCalls, 0)).toBeGreaterThan(0);
    expect(lately.reduce((sum, d) => sum + d.vacanciesPublished, 0)).toBeGreaterThan(0);
    expect(lately.reduce((sum, d) => sum + d.failures, 0)).toBe(2);

    await page.goto(`${registry.url}/admin/connectors/${atsAConnectorId}`);
    const card = page.locator('section[aria-labelledby="activity-title"]');
    await card.locator('svg.activity-chart').waitFor();
    expect(await card.locator('.activity-day').count()).toBe(14);
    for (const key of ['apiCalls', 'vacanciesPublished', 'recordsWritten'] as const) {
      const drawn = await card
        .locator(`[data-series="${key}"] rect.activity-bar`)
        .evaluateAll((bars) =>
          bars.map((bar) => [bar.getAttribute('data-day'), Number(bar.getAttribute('data-value'))]),
        );
      expect([key, drawn]).toEqual([key, days.map((d) => [d.day, d[key]])]);
    }
    // Taller bar for the bigger day: drawn to scale within its row.
    const height = (series: string, offset: number) =>
      card.locator(`[data-series="${series}"] rect[data-day="${day(offset)}"]`).getAttribute('height');
    expect(Number(await height('recordsWritten', -8))).toBeGreaterThan(
      Number(await height('recordsWritten', -1)),
    );
    const marked = await card
      .locator('.activity-failure')
      .evaluateAll((marks) => marks.map((mark) => mark.getAttribute('data-day')));
    expect(marked).toEqual(days.filter((d) => d.failures > 0).map((d) => d.day));
    expect(marked).toEqual(expect.arrayContaining([day(-8), day(-4)]));
    expect(await card.locator('svg desc').textContent()).toContain(`failures on ${marked.length} day(s)`);
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: join(SHOTS, '23-ats-a-activity.png') });
  });

  it("ATS-A: the day's budget; an exhausted day says so, a waiting run is progress, the limit can change", async () => {
    await page.goto(`${registry.url}/admin/connectors/${atsAConnectorId}`);
    const card = page.locator('section.budget');
    await card.waitFor();
    // The runs above spent calls; the page shows them with the limit and the reset.
    await page.locator('[data-budget="ours"]').filter({ hasNotText: /^0$/ }).waitFor();
    expect(await page.locator('[data-budget="limit"]').textContent()).toBe('10000');
    expect(await card.textContent()).toContain('calls used today');
    await shot('21-ats-a-budget');

    // Another integration of the customer spends the rest of the day: the ATS answers the next call with 429.
    atsA.state.setQuota({ used: atsA.state.quota().limit });
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.locator('[data-run-waiting]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-run-waiting]').textContent()).toContain('Waiting for ATS budget until');
    await card.filter({ hasText: 'resumes by itself' }).waitFor({ timeout: 15_000 });
    await page.locator('[data-budget="waiting"]').filter({ hasText: '1 runs' }).waitFor({ timeout: 15_000 });
    expect(await card.textContent()).toContain('Paused by the ATS (429)');
    expect(await page.locator('.run-progress').textContent()).not.toContain('What went wrong');
    await shot('22-ats-a-budget-exhausted');

    // The operator lowers the limit: the plan follows at once.
    await page.getByLabel(/Daily call limit/).fill('5000');
    await page.getByRole('button', { name: 'Change limit' }).click();
    await page
      .locator('[data-budget="limit"]')
      .filter({ hasText: /^5000$/ })
      .waitFor();
  });

  it('the mapping preview says so when vacancy-sync does not answer', async () => {
    await vacancySync.stop();
    await page.getByRole('navigation', { name: 'Connector' }).getByRole('link', { name: 'Mapping' }).click();
    await page.getByRole('button', { name: 'Preview with live vacancies' }).click();
    await alert('The preview is not available right now').waitFor();
    expect(await alert('The preview is not available right now').textContent()).toContain(
      'Saving the mapping still works',
    );
    await shot('20-mapping-preview-unavailable');
  });

  it('the list shows each status, with a clear call to re-authorize a connector that lost access', async () => {
    // As if ATS-B had revoked the login (the gateway reports it as connector.status_changed → auth_failed).
    await sql(`UPDATE connector SET status = 'auth_failed' WHERE name = 'Acme ATS-B'`);
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Connectors' })
      .click();
    await page.getByRole('link', { name: 'Acme ATS-A' }).waitFor();
    await page.getByRole('button', { name: 'Re-authorize Acme ATS-B' }).waitFor();
    expect(await page.locator('tr', { hasText: 'Acme ATS-A' }).locator('.badge').textContent()).toBe(
      'Connected',
    );
    expect(await page.locator('tr', { hasText: 'Acme ATS-B' }).locator('.badge').textContent()).toBe(
      'Authorization lost',
    );
    await page.getByText('lost access to the ATS').waitFor();
    await shot('18-connectors-reauthorize');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
