/**
 * The candidate pipeline end to end: N `candidate.created` events published to `platform.events` until all
 * are in the ATS-A sandbox, with 1 and with 3 candidate-sync processes, and a bare amqplib consumer that
 * POSTs the same bodies to the sandbox, in the same run, as the baseline.
 *
 *   node -r @swc-node/register bench/candidate-pipeline/candidate-pipeline.bench.ts
 *
 * Env: BENCH_EVENTS (default 5000), BENCH_PREFETCH (default 32, for candidate-sync and the bare consumer).
 * Needs Postgres and RabbitMQ (DATABASE_URL, RABBITMQ_URL as for the tests). Latency is from the publish of
 * an event to the sandbox's CreationDate of its candidate (same clock: the sandbox runs in this process).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import amqplib from 'amqplib';
import { startAtsASandbox, type RunningAtsASandbox } from '@connector/ats-a-sandbox';
import {
  type CandidateDataDto,
  type ConnectorSnapshot,
  createEvent,
  type EventEnvelope,
  Exchange,
  Queue,
  RoutingKey,
} from '@connector/contracts';
import { RabbitConnection, RpcClient } from '@connector/messaging';
import {
  createTestDatabase,
  rabbitUrl,
  startService,
  type ServiceProcess,
  TestBroker,
} from '@connector/testing';
import { saveAtsACredentials, startConnectorDirectoryStub } from '@connector/service-stubs';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 5000);
const PREFETCH = Number(process.env.BENCH_PREFETCH ?? 32);
const ACCOUNT = 'acct_bench';
const CONNECTOR_ID = `bench-ats-a-${randomUUID().slice(0, 8)}`;
const CLIENT_SECRET = `secret-${randomBytes(8).toString('hex')}`;
const connectors = new Map<string, ConnectorSnapshot>();

interface Result {
  name: string;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

function candidate(run: string, i: number): CandidateDataDto {
  return {
    candidateId: `${run}-${i}`,
    firstName: 'Bench',
    lastName: `Candidate ${i}`,
    email: `${run}.${i}@bench.example.com`,
    phone: '+44 20 7946 0000',
    workHistory: [{ employer: 'Acme', title: 'Engineer', startDate: '2020-01', current: true }],
    education: [{ institution: 'University', degree: 'BSc', startDate: '2015-09', endDate: '2018-06' }],
  };
}

/** Publishes the events as fast as the broker confirms them; returns the publish time of each email. */
async function publishAll(run: string): Promise<Map<string, number>> {
  const connection = await amqplib.connect(rabbitUrl());
  const channel = await connection.createConfirmChannel();
  const sent = new Map<string, number>();
  for (let i = 0; i < EVENTS; i++) {
    const data = candidate(run, i);
    const event = createEvent(RoutingKey.CandidateCreated, ACCOUNT, data);
    sent.set(data.email, Date.now());
    channel.publish(Exchange.PlatformEvents, event.type, Buffer.from(JSON.stringify(event)), {
      persistent: true,
      contentType: 'application/json',
      messageId: event.id,
    });
    if (i % 500 === 499) await channel.waitForConfirms();
  }
  await channel.waitForConfirms();
  await connection.close();
  return sent;
}

/** Waits until every candidate of the run is in the sandbox, then measures. */
async function measure(
  name: string,
  run: string,
  sandbox: RunningAtsASandbox,
  sent: Map<string, number>,
): Promise<Result> {
  const deadline = Date.now() + 30 * 60_000;
  let mine: Array<{ Email: string; CreationDate: string }> = [];
  for (;;) {
    mine = sandbox.state.candidates().filter((c) => c.Email.startsWith(`${run}.`));
    if (mine.length >= EVENTS) break;
    if (Date.now() > deadline) throw new Error(`${name}: only ${mine.length} of ${EVENTS} arrived`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (mine.length !== EVENTS)
    throw new Error(`${name}: ${mine.length} candidates for ${EVENTS} events (duplicates)`);
  const latencies = mine
    .map((c) => Date.parse(c.CreationDate) - (sent.get(c.Email) ?? NaN))
    .sort((a, b) => a - b);
  const first = Math.min(...sent.values());
  const last = Math.max(...mine.map((c) => Date.parse(c.CreationDate)));
  const seconds = (last - first) / 1000;
  return {
    name,
    seconds,
    perSecond: EVENTS / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: latencies[latencies.length - 1],
  };
}

async function candidateSyncRun(
  processes: number,
  sandbox: RunningAtsASandbox,
  env: Record<string, string>,
  broker: TestBroker,
): Promise<Result> {
  await broker.deleteQueuesIfPresent([Queue.CandidateSync]);
  const workers: ServiceProcess[] = await Promise.all(
    Array.from({ length: processes }, () => startService('candidate-sync', env)),
  );
  try {
    const run = `cs${processes}-${randomUUID().slice(0, 6)}`;
    const sent = await publishAll(run);
    return await measure(`candidate-sync × ${processes}`, run, sandbox, sent);
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await broker.deleteQueuesIfPresent([Queue.CandidateSync]);
  }
}

/** The baseline: take the message, POST the mapped body, ack. No lookup, no lock, no bookkeeping. */
async function bareRun(sandbox: RunningAtsASandbox): Promise<Result> {
  const tokenResponse = await fetch(`${sandbox.url}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: 'bench-client',
      client_secret: CLIENT_SECRET,
    }),
  });
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  const connection = await amqplib.connect(rabbitUrl());
  const channel = await connection.createChannel();
  const queue = `bench-bare-${randomUUID().slice(0, 8)}`;
  await channel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  await channel.bindQueue(queue, Exchange.PlatformEvents, RoutingKey.CandidateCreated);
  await channel.prefetch(PREFETCH);
  await channel.consume(queue, (message) => {
    if (!message) return;
    const { data } = JSON.parse(message.content.toString()) as EventEnvelope<string, CandidateDataDto>;
    void fetch(`${sandbox.url}/api/candidates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        FirstName: data.firstName,
        Surname: data.lastName,
        Email: data.email,
        Telephone: data.phone ?? null,
        EmploymentHistory: (data.workHistory ?? []).map((w) => ({
          Employer: w.employer,
          JobTitle: w.title,
          StartDate: w.startDate,
          EndDate: w.endDate ?? null,
        })),
        Education: (data.education ?? []).map((e) => ({
          Establishment: e.institution,
          Qualification: e.degree ?? null,
          StartDate: e.startDate ?? null,
          EndDate: e.endDate ?? null,
        })),
      }),
    }).then(
      () => channel.ack(message),
      () => channel.nack(message, false, true),
    );
  });
  try {
    const run = `bare-${randomUUID().slice(0, 6)}`;
    const sent = await publishAll(run);
    return await measure('bare amqplib consumer', run, sandbox, sent);
  } finally {
    await channel.deleteQueue(queue);
    await connection.close();
  }
}

async function main(): Promise<void> {
  const database = await createTestDatabase('bench_candidates');
  const sandbox = await startAtsASandbox({
    clients: [
      { clientId: 'demo-client', clientSecret: CLIENT_SECRET },
      { clientId: 'bench-client', clientSecret: CLIENT_SECRET },
    ],
    seed: { vacancies: 10 },
    dailyLimit: 10_000_000,
  });
  const broker = await TestBroker.connect();
  await broker.deleteQueuesIfPresent([Queue.ConnectorRegistry, Queue.CandidateSync, Queue.AuthGateway]);
  const registry = await startConnectorDirectoryStub(connectors);
  const gateway = await startService('auth-gateway', {
    DATABASE_URL: database.url,
    RABBITMQ_URL: rabbitUrl(),
    ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    LOG_LEVEL: 'warn',
  });
  const connection = new RabbitConnection({ url: rabbitUrl(), name: 'bench' });
  const rpc = new RpcClient(connection);
  const results: Result[] = [];
  try {
    await saveAtsACredentials(rpc, ACCOUNT, CONNECTOR_ID, {
      baseUrl: sandbox.url,
      clientId: 'demo-client',
      clientSecret: CLIENT_SECRET,
    });
    connectors.set(CONNECTOR_ID, {
      id: CONNECTOR_ID,
      accountId: ACCOUNT,
      type: 'ats-a',
      name: 'bench',
      status: 'connected',
      // A budget far above the run, so the pipeline, not the rate limiter, is measured.
      options: { dailyCallLimit: 100_000_000 },
      config: { baseUrl: sandbox.url, clientId: 'demo-client' },
      mapping: { version: 1, mapping: {} },
      updatedAt: new Date().toISOString(),
    });
    const env = {
      DATABASE_URL: database.url,
      RABBITMQ_URL: rabbitUrl(),
      LOG_LEVEL: 'warn',
      PREFETCH: String(PREFETCH),
    };
    for (const processes of [1, 3]) {
      process.stdout.write(`candidate-sync × ${processes}…\n`);
      results.push(await candidateSyncRun(processes, sandbox, env, broker));
    }
    process.stdout.write('bare amqplib consumer…\n');
    results.push(await bareRun(sandbox));
  } finally {
    await rpc.close();
    await connection.close();
    await gateway.stop();
    await registry.close();
    await broker.close();
    await sandbox.close();
    await database.drop();
  }
  const bare = results[results.length - 1];
  process.stdout.write(`\n${EVENTS} candidate.created events, prefetch ${PREFETCH}\n\n`);
  process.stdout.write('| pipeline | events/s | ratio to bare | p50 ms | p99 ms | max ms | total s |\n');
  process.stdout.write('|---|---|---|---|---|---|---|\n');
  for (const r of results) {
    process.stdout.write(
      `| ${r.name} | ${r.perSecond.toFixed(0)} | ${(r.perSecond / bare.perSecond).toFixed(2)} | ${r.p50} | ${r.p99} | ${r.max} | ${r.seconds.toFixed(1)} |\n`,
    );
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
