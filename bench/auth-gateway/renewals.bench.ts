/**
 * auth-gateway renewals (issue 33): N ATS-A connectors, each on its own customer system (a tenant of the
 * ATS-A sandbox answering after BENCH_LATENCY_MS), their credentials saved through auth-gateway, then their
 * access expired in the database; then a `credentials.requested` for every one, all at once (`burst`) or at
 * BENCH_RATE a second (`rate`), as workers ask. A BUSY answer is asked again after its retryAfterMs (about
 * 1 s when the reply does not carry it), at most BENCH_MAX_TRIES times, as a worker's deferral would.
 *
 *   node -r @swc-node/register bench/auth-gateway/renewals.bench.ts
 *
 * Env: BENCH_CONNECTORS (500), BENCH_LATENCY_MS (150), BENCH_MODE (burst | rate; burst), BENCH_RATE (100 a
 * second), BENCH_MAX_TRIES (20), BENCH_GATEWAY_ENV (`K=V …` for the auth-gateway process).
 * Reports renewals a second (token calls at the sandbox over the phase), p50/p95 of one request's answer and
 * of the time until a connector had its access, BUSY answers and errors. Needs Postgres and RabbitMQ as for
 * the tests (a database and a vhost of its own); every wait is bounded.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { startAtsASandbox, type RunningAtsASandbox } from '@connector/ats-a-sandbox';
import { createEvent, RoutingKey } from '@connector/contracts';
import { RabbitConnection, RpcClient, RpcError } from '@connector/messaging';
import { registryRequest } from '@connector/service-stubs';
import { createSuiteInfrastructure, startService, type ServiceProcess } from '@connector/testing';

const envNumber = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
};

const CONNECTORS = envNumber('BENCH_CONNECTORS', 500);
const LATENCY_MS = envNumber('BENCH_LATENCY_MS', 150);
const MODE = process.env.BENCH_MODE ?? 'burst';
const RATE = envNumber('BENCH_RATE', 100);
const MAX_TRIES = envNumber('BENCH_MAX_TRIES', 20);
const GATEWAY_ENV = Object.fromEntries(
  (process.env.BENCH_GATEWAY_ENV ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
if (MODE !== 'burst' && MODE !== 'rate') throw new Error('BENCH_MODE: burst or rate');

const CLIENT = { clientId: 'bench-client', clientSecret: `secret-${randomBytes(6).toString('hex')}` };
const TOKEN_CALL = 'POST /api/token';

interface Connector {
  id: string;
  accountId: string;
  tenant: string;
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function tokenCalls(sandbox: RunningAtsASandbox): number {
  let calls = 0;
  for (const name of sandbox.tenants.names())
    calls += sandbox.tenants.get(name)?.state.callCounts().byEndpoint[TOKEN_CALL] ?? 0;
  return calls;
}

/** `work` for every item, `concurrency` at a time. */
async function eachLimited<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  const queue = [...items];
  const lane = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
}

async function main(): Promise<void> {
  const infra = await createSuiteInfrastructure('bench_gateway_renewals');
  const sandbox = await startAtsASandbox({
    clients: [CLIENT],
    seed: { vacancies: 1 },
    tenants: { max: CONNECTORS + 10, defaults: { latencyMs: LATENCY_MS, vacancies: 1 } },
  });
  let gateway: ServiceProcess | undefined;
  const connection = new RabbitConnection({ url: infra.vhost.url, name: 'bench-renewals' });
  // As the e2e asks: one requester for the saves and the workers' requests.
  const rpc = new RpcClient(connection, 'connector-registry');
  try {
    gateway = await startService('auth-gateway', {
      ...infra.env,
      ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      LOG_LEVEL: 'warn',
      ...GATEWAY_ENV,
    });
    const connectors: Connector[] = Array.from({ length: CONNECTORS }, (_, i) => ({
      id: randomUUID(),
      accountId: `acct-bench-${i}`,
      tenant: `r-${i}`,
    }));

    // Set-up: each connector's credentials saved through the gateway (it checks them at the ATS).
    const setupStarted = Date.now();
    await eachLimited(connectors, 8, async (c) => {
      for (let attempt = 0; ; attempt++) {
        try {
          await rpc.request(
            registryRequest(RoutingKey.AuthCredentialsSave, c.accountId, {
              connectorId: c.id,
              type: 'ats-a',
              config: { baseUrl: sandbox.tenantUrl(c.tenant), ...CLIENT },
            }),
            30_000,
          );
          return;
        } catch (error) {
          if (!(error instanceof RpcError && error.code === 'BUSY') || attempt > 50) throw error;
          await sleep(200);
        }
      }
    });
    console.log(
      `set-up: ${CONNECTORS} connectors saved in ${((Date.now() - setupStarted) / 1000).toFixed(1)} s`,
    );

    // Every access ends now: each request below needs a renewal.
    const db = new Client({ connectionString: infra.database.url });
    await db.connect();
    await db.query(`UPDATE connector_credential SET access_expires_at = now()`);
    await db.end();

    const callsBefore = tokenCalls(sandbox);
    const answerMs: number[] = [];
    const accessMs: number[] = [];
    let busy = 0;
    const errors = new Map<string, number>();
    const started = Date.now();
    let lastAccessAt = started;
    const ask = async (c: Connector) => {
      const askedAt = Date.now();
      for (let attempt = 1; attempt <= MAX_TRIES; attempt++) {
        const sent = Date.now();
        try {
          await rpc.request(
            createEvent(RoutingKey.CredentialsRequested, c.accountId, { connectorId: c.id }),
            20_000,
          );
          answerMs.push(Date.now() - sent);
          accessMs.push(Date.now() - askedAt);
          lastAccessAt = Math.max(lastAccessAt, Date.now());
          return;
        } catch (error) {
          answerMs.push(Date.now() - sent);
          const code = error instanceof RpcError ? error.code : 'FAILED';
          if (code !== 'BUSY') {
            errors.set(code, (errors.get(code) ?? 0) + 1);
            return;
          }
          busy += 1;
          const named = (error as RpcError & { retryAfterMs?: unknown }).retryAfterMs;
          const waitMs = typeof named === 'number' ? named : 1_000 * (0.5 + Math.random());
          await sleep(waitMs);
        }
      }
      errors.set('GAVE_UP', (errors.get('GAVE_UP') ?? 0) + 1);
    };
    if (MODE === 'burst') {
      await Promise.all(connectors.map(ask));
    } else {
      const pending: Promise<void>[] = [];
      for (const [i, c] of connectors.entries()) {
        const due = started + (i * 1000) / RATE;
        if (due > Date.now()) await sleep(due - Date.now());
        pending.push(ask(c));
      }
      await Promise.all(pending);
    }
    const seconds = (lastAccessAt - started) / 1000;
    const renewals = tokenCalls(sandbox) - callsBefore;
    const report = {
      connectors: CONNECTORS,
      latencyMs: LATENCY_MS,
      mode: MODE === 'rate' ? `rate ${RATE}/s` : 'burst',
      renewals,
      renewalsPerSecond: Number((renewals / seconds).toFixed(1)),
      seconds: Number(seconds.toFixed(1)),
      answerP50Ms: percentile(answerMs, 50),
      answerP95Ms: percentile(answerMs, 95),
      accessP50Ms: percentile(accessMs, 50),
      accessP95Ms: percentile(accessMs, 95),
      busyAnswers: busy,
      errors: Object.fromEntries(errors),
    };
    console.log(JSON.stringify(report));
  } finally {
    await rpc.close();
    await connection.close();
    await gateway?.stop();
    await sandbox.close();
    await infra.drop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
