import { randomBytes, randomUUID } from 'node:crypto';
import type { ConsumeMessage } from 'amqplib';
import { startAtsASandbox, type RunningAtsASandbox } from '@connector/ats-a-sandbox';
import { startAtsBSandbox, type RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import { atsAQuotaKey } from '@connector/ats-a';
import { Pool } from 'pg';
import {
  type AtsAccess,
  type ConnectorSnapshot,
  createEvent,
  credentialFingerprint,
  Exchange,
  Queue,
  RoutingKey,
} from '@connector/contracts';
import { deadLetterQueueName, RabbitConnection, RpcClient, RpcError } from '@connector/messaging';
import { connectorSnapshot } from '@connector/ats-testing';
import {
  createSuiteInfrastructure,
  eventsOf,
  eventually,
  metricValue,
  rabbitUrl,
  scrapeMetrics,
  startService,
  type ServiceProcess,
  type SuiteInfrastructure,
  TestBroker,
  waitForEvent,
} from '@connector/testing';
import {
  type ConnectorDirectoryStub,
  saveAtsACredentials,
  startConnectorDirectoryStub,
} from '@connector/service-stubs';

/**
 * ATS trouble handled at the ATS's pace (issue 25), end to end: auth-gateway and candidate-sync as processes
 * with their production retry ladder (5 s, 30 s, 2 min…), ATS-A sandboxes in-process (the vendor), real
 * RabbitMQ and Postgres. The quota scenario runs on the issue's own numbers (a 150 s window, 120 s tokens),
 * so it takes about three minutes: the sandbox starts the window when the test does, but no window can be
 * shortened without shortening the tokens with it, whose renewal margins are what the scenario exercises.
 */

const CLIENT_SECRET = `secret-${randomBytes(8).toString('hex')}`;
/** The client's timeout in this suite: a write never answered is "lost" this long after it was sent. */
const ATS_TIMEOUT_MS = 5_000;

describe('ATS trouble at the ATS pace', () => {
  let infra: SuiteInfrastructure;
  let broker: TestBroker;
  let connection: RabbitConnection;
  let rpc: RpcClient;
  let registry: ConnectorDirectoryStub;
  let atsB: RunningAtsBSandbox;
  let out: ConsumeMessage[];
  let worker: ServiceProcess;
  let pool: Pool;
  const processes: ServiceProcess[] = [];
  const sandboxes: RunningAtsASandbox[] = [];
  const connectors = new Map<string, ConnectorSnapshot>();

  async function connectorOn(sandbox: RunningAtsASandbox): Promise<ConnectorSnapshot> {
    const id = randomUUID();
    const accountId = `acct_pace_${id.slice(0, 8)}`;
    await saveAtsACredentials(rpc, accountId, id, {
      baseUrl: sandbox.url,
      clientId: 'demo-client',
      clientSecret: CLIENT_SECRET,
    });
    // No limit of our own: the ATS's X-RateLimit-Limit is what the plan obeys.
    const snapshot = connectorSnapshot({
      id,
      accountId,
      type: 'ats-a',
      config: { baseUrl: sandbox.url, clientId: 'demo-client' },
      ownDailyLimit: false,
    });
    connectors.set(id, snapshot);
    return snapshot;
  }

  async function customerSystem(
    options: Parameters<typeof startAtsASandbox>[0],
  ): Promise<RunningAtsASandbox> {
    const sandbox = await startAtsASandbox({
      clients: [{ clientId: 'demo-client', clientSecret: CLIENT_SECRET }],
      seed: { vacancies: 20 },
      ...options,
    });
    sandboxes.push(sandbox);
    return sandbox;
  }

  function publishCandidate(accountId: string): { id: string; candidateId: string; email: string } {
    const tag = randomUUID().slice(0, 12);
    const data = {
      candidateId: `cand-${tag}`,
      firstName: 'Grace',
      lastName: 'Hopper',
      email: `p.${tag}@example.com`,
    };
    const event = createEvent(RoutingKey.CandidateCreated, accountId, data);
    broker.publish(Exchange.PlatformEvents, event.type, event);
    return { id: event.id, candidateId: data.candidateId, email: data.email };
  }

  const failures = () => eventsOf(out, RoutingKey.OperationFailed);
  /** candidate-sync's lines saying an attempt of one of these messages failed (a wait is not one). */
  const failedAttempts = (ids: Set<string>) =>
    worker.output.filter(
      (line) => /attempt \d+ failed/.test(line) && [...ids].some((id) => line.includes(id)),
    );

  beforeAll(async () => {
    infra = await createSuiteInfrastructure('e2e_pace');
    atsB = await startAtsBSandbox({});
    broker = await TestBroker.connect();
    await broker.deleteQueuesIfPresent([
      Queue.ConnectorRegistry,
      Queue.CandidateSync,
      deadLetterQueueName(Queue.CandidateSync),
      Queue.AuthGateway,
    ]);
    out = await broker.tap(Exchange.ConnectorEvents, '#');
    registry = await startConnectorDirectoryStub(connectors);
    const base = { DATABASE_URL: infra.database.url, RABBITMQ_URL: rabbitUrl() };
    pool = new Pool({ connectionString: infra.database.url, max: 2 });
    // Two auth-gateway processes with one sealing key, as a deployment runs them.
    const gatewayEnv = {
      ...base,
      ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      ATS_B_OAUTH_URL: atsB.oauthUrl,
      ATS_B_REST_LOGIN_URL: atsB.restLoginUrl,
      ATS_B_REDIRECT_URI: 'http://127.0.0.1:3999/oauth/ats-b/callback',
    };
    processes.push(
      ...(await Promise.all([
        startService('auth-gateway', gatewayEnv),
        startService('auth-gateway', gatewayEnv),
      ])),
    );
    connection = new RabbitConnection({ url: rabbitUrl(), name: 'e2e-pace' });
    rpc = new RpcClient(connection, 'connector-registry');
    // The production ladder (no RETRY_DELAYS_MS): quick retries and the index lag are what make it fast.
    worker = await startService('candidate-sync', { ...base, ATS_TIMEOUT_MS: String(ATS_TIMEOUT_MS) });
    processes.push(worker);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await rpc?.close();
    await connection?.close();
    await registry?.close();
    await broker?.close();
    await Promise.all(sandboxes.map((s) => s.close()));
    await atsB?.close();
    await pool?.end();
    await infra?.drop();
  });

  it('puts 60 candidates once into a quota of 70 with 45 spent elsewhere, tokens of 120 s, ≤ 2 answers 429', async () => {
    const sandbox = await customerSystem({ dailyLimit: 70, quotaWindowSeconds: 150, tokenTtlSeconds: 120 });
    const target = await connectorOn(sandbox);
    // A window starts now; another integration of the customer has spent 45 of its 70 calls.
    sandbox.state.setQuota({ used: 45, startWindow: true });
    const windowEnd = Date.parse(sandbox.state.quota().windowEnd);

    const sent = Array.from({ length: 60 }, () => publishCandidate(target.accountId));
    const emails = new Set(sent.map((c) => c.email));
    const inAts = () => sandbox.state.candidates().filter((c) => emails.has(String(c.Email)));
    let seen = '';
    await eventually(
      () => {
        const calls = sandbox.state.callCounts();
        seen = `${inAts().length} of 60 in the ATS, quota ${JSON.stringify(sandbox.state.quota())}, calls ${JSON.stringify(calls)}`;
        return inAts().length === 60;
      },
      270_000,
      'all 60 candidates in the ATS',
    ).catch((error: Error) => {
      throw new Error(`${error.message}; ${seen}; last lines: ${worker.output.slice(-5).join(' | ')}`);
    });

    // The first window held only 25 calls (a token request among them as the token ran out): the rest
    // waited for the reset it named, then went in.
    expect(Date.now()).toBeGreaterThan(windowEnd);
    expect(new Set(inAts().map((c) => c.Email)).size).toBe(60);
    expect(inAts()).toHaveLength(60);
    const { rateLimited, byEndpoint } = sandbox.state.callCounts();
    const answered429 = Object.values(rateLimited).reduce((sum, n) => sum + n, 0);
    // Only calls already in flight when the ATS first told of the other integration's use could meet a 429.
    expect(
      answered429 <= 2 ? 'at most 2' : `${answered429} answers 429: ${JSON.stringify(rateLimited)}`,
    ).toBe('at most 2');
    // Tokens were asked for again after the first one ran out, and counted against the quota.
    expect(byEndpoint['POST /api/token'] ?? 0).toBeGreaterThanOrEqual(2);
    await eventually(
      () =>
        sent.every((c) => eventsOf(out, RoutingKey.CandidateSynced).some((e) => e.correlationId === c.id)),
      30_000,
      'candidate.synced for all 60',
    );
    expect(failures()).toEqual([]);
    // Waiting for budget, a token's included, never counted as a failed attempt.
    expect(failedAttempts(new Set(sent.map((c) => c.id)))).toEqual([]);
    expect(await broker.messageCount(deadLetterQueueName(Queue.CandidateSync))).toBe(0);
  }, 330_000);

  it('lands a create that met three 500s within 15 s, and settles a write never answered within 30 s', async () => {
    const sandbox = await customerSystem({ dailyLimit: 1_000_000, indexLagMs: 5_000 });
    const target = await connectorOn(sandbox);

    // Three 500s, then the ATS works again: retried inside the handler, not after the ladder's 5 s + 30 s + 2 min.
    sandbox.state.setFaults({ failNext: { 'POST /api/candidates': 3 }, errorStatus: 500 });
    const started = Date.now();
    const created = publishCandidate(target.accountId);
    await eventually(
      () => sandbox.state.candidates().some((c) => c.Email === created.email),
      20_000,
      'the candidate after three 500s',
    );
    const landedAfterMs = Date.now() - started;
    expect(sandbox.state.faultConfig().failNext['POST /api/candidates']).toBe(0); // the three 500s were met
    expect(landedAfterMs).toBeLessThanOrEqual(15_000);
    await waitForEvent(() => out, RoutingKey.CandidateSynced, created.id, {}, 20_000);

    // The application is written, and its answer never comes (the line is held past the client's timeout).
    sandbox.state.setFaults({ timeoutAfterWrite: { 'POST /api/applications': 1 }, timeoutMs: 60_000 });
    const candidateId = sandbox.state.candidates().find((c) => c.Email === created.email)!.CandidateId;
    const applicationId = `app-${randomUUID().slice(0, 8)}`;
    const submitted = createEvent(RoutingKey.ApplicationSubmitted, target.accountId, {
      applicationId,
      candidateId: created.candidateId,
      vacancies: [{ connectorId: target.id, externalId: '3' }],
    });
    broker.publish(Exchange.PlatformEvents, submitted.type, submitted);
    const mine = () => sandbox.state.applications().filter((a) => a.Candidate.Id === candidateId);
    await eventually(() => mine().length === 1, 20_000, 'the application written in the ATS');
    // It was written as it arrived: its answer is lost once the client's timeout has run.
    const lostAt = Date.now() + ATS_TIMEOUT_MS;
    const synced = await waitForEvent(() => out, RoutingKey.ApplicationSynced, submitted.id, {}, 60_000);
    const settledAfterMs = Date.parse(synced.occurredAt) - lostAt;
    expect(synced.data).toMatchObject({ applicationId, externalId: String(mine()[0]!.ApplicationId) });
    expect(settledAfterMs).toBeLessThanOrEqual(30_000);
    // Looked up (after the sandbox's 5 s index lag), never written twice.
    expect(mine()).toHaveLength(1);
    expect(sandbox.state.duplicateApplications()).toBe(0);
    expect(worker.output.some((l) => l.includes('after an unsure create'))).toBe(true);
    expect(failures()).toEqual([]);
  }, 120_000);

  it('asks ATS-A for one token at a time across gateway processes; its 429 pauses, the others ask nothing', async () => {
    const sandbox = await customerSystem({ dailyLimit: 50, quotaWindowSeconds: 600 });
    const target = await connectorOn(sandbox);
    const access = (rejected?: string) =>
      rpc.request<AtsAccess>(
        createEvent(RoutingKey.CredentialsRequested, target.accountId, {
          connectorId: target.id,
          ...(rejected ? { rejected } : {}),
        }),
        20_000,
      );
    const current = await access();
    if (current.type !== 'ats-a') throw new Error(`expected ATS-A access, got ${current.type}`);
    // Another integration spent the day; then the ATS refuses our token and 20 workers ask for a new one.
    sandbox.state.setQuota({ used: 50, startWindow: true });
    const windowEnd = Date.parse(sandbox.state.quota().windowEnd);
    const tokenCalls = () => sandbox.state.callCounts().byEndpoint['POST /api/token'] ?? 0;
    const before = tokenCalls();
    const rejected = credentialFingerprint(current.accessToken);
    const gateways = processes.filter((p) => p.name === 'auth-gateway');
    const refusals = () =>
      Promise.all(
        gateways.map(async (g) =>
          metricValue(await scrapeMetrics(g.url), 'connector_oauth_refreshes_total', {
            ats: 'ats-a',
            outcome: 'rate_limited',
          }),
        ),
      );
    const refusedBefore = await refusals();
    const answers = await Promise.allSettled(Array.from({ length: 20 }, () => access(rejected)));

    expect(answers.map((a) => (a.status === 'rejected' ? (a.reason as RpcError).code : 'a token'))).toEqual(
      Array.from({ length: 20 }, () => 'RATE_LIMITED'),
    );
    // One token request reached the ATS (and met its 429); the customer system waits for the reset it named.
    expect(tokenCalls() - before).toBe(1);
    // Both gateway processes answered some of the 20 (the broker spreads them): the one-at-a-time is theirs.
    const refusedAfter = await refusals();
    expect(refusedAfter.map((n, i) => n - refusedBefore[i]! > 0)).toEqual([true, true]);
    expect(sandbox.state.callCounts().rateLimited['POST /api/token']).toBe(1);
    const { rows } = await pool.query<{ paused_until: Date | null }>(
      'SELECT paused_until FROM ats_quota WHERE key = $1',
      [atsAQuotaKey(target)],
    );
    expect(Math.abs((rows[0]?.paused_until?.getTime() ?? 0) - windowEnd)).toBeLessThan(2_000);
    // Still connected: a token refused for budget is not a refused secret.
    expect(eventsOf(out, RoutingKey.ConnectorStatusChanged)).toEqual([]);
  }, 60_000);
});
