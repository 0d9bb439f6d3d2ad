import { randomBytes, randomUUID } from 'node:crypto';
import type { ConsumeMessage } from 'amqplib';
import { Pool } from 'pg';
import { startAtsASandbox, type RunningAtsASandbox } from '@connector/ats-a-sandbox';
import { atsAQuotaKey } from '@connector/ats-a';
import { type ConnectorSnapshot, createEvent, Exchange, Queue, RoutingKey } from '@connector/contracts';
import { deadLetterQueueName, RabbitConnection, RpcClient } from '@connector/messaging';
import { connectorSnapshot } from '@connector/ats-testing';
import {
  createSuiteInfrastructure,
  eventually,
  rabbitUrl,
  startService,
  type ServiceProcess,
  TestBroker,
  type TestDatabase,
  type SuiteInfrastructure,
} from '@connector/testing';
import {
  type ConnectorDirectoryStub,
  startAuthGateway,
  saveAtsACredentials,
  startConnectorDirectoryStub,
} from '@connector/service-stubs';
import { startAtsBSandbox, type RunningAtsBSandbox } from '@connector/ats-b-sandbox';

/**
 * ATS-A's daily limit end to end: candidate-sync, vacancy-sync and auth-gateway as processes, ATS-A sandboxes
 * (the vendor, metering its limit with X-RateLimit-* and 429 + Retry-After) in-process, real RabbitMQ and
 * Postgres. Each scenario has a sandbox (a customer system) and an account of its own. The sandboxes' days
 * are shortened (quotaWindowSeconds) where a reset must be seen.
 */

const CLIENT_SECRET = `secret-${randomBytes(8).toString('hex')}`;
const OTHER_SECRET = `other-${randomBytes(8).toString('hex')}`;

describe('ATS-A daily quota', () => {
  let database: TestDatabase;
  let broker: TestBroker;
  let connection: RabbitConnection;
  let rpc: RpcClient;
  let registry: ConnectorDirectoryStub;
  let atsB: RunningAtsBSandbox;
  let pool: Pool;
  let out: ConsumeMessage[];
  const sandboxes: RunningAtsASandbox[] = [];
  const processes: ServiceProcess[] = [];
  const connectors = new Map<string, ConnectorSnapshot>();
  let infra: SuiteInfrastructure;

  async function customerSystem(
    dailyLimit: number,
    quotaWindowSeconds?: number,
  ): Promise<RunningAtsASandbox> {
    const sandbox = await startAtsASandbox({
      clients: [
        { clientId: 'demo-client', clientSecret: CLIENT_SECRET },
        { clientId: 'other-integration', clientSecret: OTHER_SECRET },
      ],
      seed: { vacancies: 20 },
      dailyLimit,
      ...(quotaWindowSeconds ? { quotaWindowSeconds } : {}),
    });
    sandboxes.push(sandbox);
    return sandbox;
  }

  async function connector(
    sandbox: RunningAtsASandbox,
    options: Record<string, unknown>,
  ): Promise<ConnectorSnapshot> {
    const id = randomUUID();
    const accountId = `acct_quota_${id.slice(0, 8)}`;
    await saveAtsACredentials(rpc, accountId, id, {
      baseUrl: sandbox.url,
      clientId: 'demo-client',
      clientSecret: CLIENT_SECRET,
    });
    // The suite's own limits only: none given leaves the ATS's (or the default) limit to the plan.
    const snapshot = connectorSnapshot({
      id,
      accountId,
      type: 'ats-a',
      config: { baseUrl: sandbox.url, clientId: 'demo-client' },
      options,
      ownDailyLimit: false,
    });
    connectors.set(id, snapshot);
    return snapshot;
  }

  function candidatesCreated(accountId: string, count: number): string[] {
    const emails: string[] = [];
    for (let i = 0; i < count; i++) {
      const tag = randomUUID().slice(0, 12);
      const email = `q.${tag}@example.com`;
      emails.push(email);
      const event = createEvent(RoutingKey.CandidateCreated, accountId, {
        candidateId: `cand-${tag}`,
        firstName: 'Grace',
        lastName: 'Hopper',
        email,
      });
      broker.publish(Exchange.PlatformEvents, event.type, event);
    }
    return emails;
  }

  /** The customer's other integration: the same quota, spent with its own API key, straight at the ATS. */
  async function spendAsOtherIntegration(sandbox: RunningAtsASandbox, calls: number): Promise<number[]> {
    const token = await fetch(`${sandbox.url}/api/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: 'other-integration',
        client_secret: OTHER_SECRET,
      }),
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const statuses: number[] = [];
    for (let i = 0; i < calls; i++) {
      const response = await fetch(`${sandbox.url}/api/options/dropdown/50`, {
        headers: { Authorization: `Bearer ${token.access_token}`, Accept: 'application/json' },
      });
      await response.text();
      statuses.push(response.status);
    }
    return statuses;
  }

  const inAts = (sandbox: RunningAtsASandbox, emails: string[]) => {
    const wanted = new Set(emails);
    return sandbox.state.candidates().filter((c) => wanted.has(String(c.Email)));
  };
  const failures = () => out.filter((m) => m.fields.routingKey === RoutingKey.OperationFailed);
  const quotaRow = async (target: ConnectorSnapshot) =>
    (
      await pool.query<{ paused_until: Date | null; used: number; reset_at: Date }>(
        `SELECT paused_until, used, reset_at FROM ats_quota WHERE key = $1`,
        [atsAQuotaKey(target)],
      )
    ).rows[0];

  beforeAll(async () => {
    infra = await createSuiteInfrastructure('e2e_quota');
    ({ database } = infra);
    pool = new Pool({ connectionString: database.url, max: 2 });
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
    const base = { DATABASE_URL: database.url, RABBITMQ_URL: rabbitUrl() };
    processes.push(await startAuthGateway(atsB, base));
    connection = new RabbitConnection({ url: rabbitUrl(), name: 'e2e-quota' });
    rpc = new RpcClient(connection, 'connector-registry');
    processes.push(
      ...(await Promise.all([
        startService('candidate-sync', {
          ...base,
          RETRY_DELAYS_MS: '300,600,1000,2000,3000,5000',
          BUDGET_WAIT_MS: '500',
        }),
        startService('vacancy-sync', { ...base, SCHEDULER_TICK_MS: '500', RUN_INLINE_WAIT_MAX_MS: '0' }),
      ])),
    );
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

  it('puts a burst of 1 500 candidates into the ATS within minutes, within a limit of 2 000, while the scheduled sync runs', async () => {
    const sandbox = await customerSystem(2_000);
    const target = await connector(sandbox, { dailyCallLimit: 2_000, syncIntervalMinutes: 0.05 });
    // One requested run makes vacancy-sync schedule the connector from then on (every 3 s here).
    const run = createEvent(RoutingKey.RunRequested, target.accountId, {
      connectorId: target.id,
      runId: randomUUID(),
    });
    broker.publish(Exchange.Internal, RoutingKey.RunRequested, run);
    await eventually(
      () => sandbox.state.callCounts().byEndpoint['POST /api/vacancies/search'],
      30_000,
      'first sync',
    );

    const started = Date.now();
    const searchesBefore = sandbox.state.callCounts().byEndpoint['POST /api/vacancies/search'] ?? 0;
    const emails = candidatesCreated(target.accountId, 1_500);
    await eventually(() => inAts(sandbox, emails).length === 1_500, 240_000, '1 500 candidates in the ATS');
    const tookMs = Date.now() - started;

    expect(tookMs).toBeLessThan(240_000);
    expect(new Set(inAts(sandbox, emails).map((c) => c.Email)).size).toBe(1_500);
    expect(sandbox.state.quota().used).toBeLessThanOrEqual(2_000);
    // Scheduled syncs go on: the sync share is never spent by pushes. The burst may end within one sync
    // interval (3 s), so the next scheduled search is waited for, and it finds the budget it needs.
    await eventually(
      () => (sandbox.state.callCounts().byEndpoint['POST /api/vacancies/search'] ?? 0) > searchesBefore,
      30_000,
      'a scheduled sync after the burst began',
    );
    expect(sandbox.state.quota().used).toBeLessThanOrEqual(2_000);
    expect(failures()).toEqual([]);
  }, 300_000);

  it('with a limit of 300, spends 300 calls, lets the rest wait for the reset, then puts all 500 in once, nothing failed', async () => {
    // A 60 s day: spending 300 calls in it must not depend on how fast a loaded machine pushes (a 30 s one
    // could end first, and the next took the rest with budget to spare: nothing to see waiting).
    const sandbox = await customerSystem(300, 60);
    // The connector is left at the default limit: the ATS's X-RateLimit-Limit (300) is what the plan obeys.
    const target = await connector(sandbox, {});
    await eventually(() => sandbox.state.quota().retryAfterSeconds >= 55, 65_000, 'a fresh window');
    const emails = candidatesCreated(target.accountId, 500);
    // The first window's budget is spent and the rest waits (in delay queues, not as failed attempts).
    let seen = '';
    const spent = await eventually(
      () => {
        const quota = sandbox.state.quota();
        const count = inAts(sandbox, emails).length;
        seen = `last seen: ${JSON.stringify(quota)}, ${count} of 500 in the ATS`;
        // The plan keeps the sync share for the rest of the (60 s) day: a call or so may stay unspent.
        return quota.remaining <= 2 && count < 500 ? { count, quota } : undefined;
      },
      90_000,
      'the day spent with work waiting',
    ).catch(async (error: Error) => {
      throw new Error(`${error.message}; ${seen}; plan: ${JSON.stringify(await quotaRow(target))}`);
    });
    expect(spent.quota.used).toBeGreaterThanOrEqual(298);
    expect(spent.quota.used).toBeLessThanOrEqual(300);
    await eventually(() => inAts(sandbox, emails).length === 500, 150_000, 'all 500 after the reset');
    expect(new Set(inAts(sandbox, emails).map((c) => c.Email)).size).toBe(500);
    expect(inAts(sandbox, emails)).toHaveLength(500);
    expect(await broker.messageCount(deadLetterQueueName(Queue.CandidateSync))).toBe(0);
    expect(failures()).toEqual([]);
  }, 360_000);

  it('stays within what another integration left, and after a 429 parks everything until the named reset', async () => {
    const sandbox = await customerSystem(200, 30);
    // Its day ends 10 s from now (its own hour, not the clock's half-minute): the wait for a fresh one below
    // is that long, not up to a whole window.
    sandbox.state.setQuota({ resetAt: new Date(Date.now() + 10_000).toISOString() });
    const target = await connector(sandbox, { dailyCallLimit: 10_000 });
    // Wait for the start of a fresh window, so both phases happen inside one window.
    await eventually(() => sandbox.state.quota().retryAfterSeconds >= 28, 35_000, 'a fresh window');
    expect((await spendAsOtherIntegration(sandbox, 150)).every((s) => s === 200)).toBe(true);

    const first = candidatesCreated(target.accountId, 20);
    await eventually(() => inAts(sandbox, first).length === 20, 20_000, 'the first 20 candidates');
    // Our calls read the headers: the plan knows the other integration's 150 calls and was never refused.
    // (A candidate is in the ATS a moment before its answer's headers are recorded: wait for the last ones.)
    const row = await eventually(
      async () => {
        const current = await quotaRow(target);
        return current && current.used >= 150 + 20 ? current : undefined;
      },
      10_000,
      "the plan to record the other integration's calls and ours",
    );
    expect(row.paused_until).toBeNull();

    // The other integration spends all that is left: our next call gets 429 and parks the customer system.
    await spendAsOtherIntegration(sandbox, sandbox.state.quota().remaining);
    const resetAt = Date.parse(sandbox.state.quota().windowEnd);
    const rest = candidatesCreated(target.accountId, 30);
    const paused = await eventually(
      async () => (await quotaRow(target))?.paused_until,
      20_000,
      'the 429 pause',
    );
    expect(Math.abs(paused.getTime() - resetAt)).toBeLessThan(2_000);
    expect(inAts(sandbox, rest).length).toBe(0);

    await eventually(() => inAts(sandbox, rest).length === 30, 90_000, 'the rest after the reset');
    expect(Date.now()).toBeGreaterThanOrEqual(resetAt);
    expect(inAts(sandbox, [...first, ...rest])).toHaveLength(50);
    expect(await broker.messageCount(deadLetterQueueName(Queue.CandidateSync))).toBe(0);
    expect(failures()).toEqual([]);
  }, 180_000);
});
