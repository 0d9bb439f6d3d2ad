/**
 * The candidate pipeline end to end, two suites in one invocation (BENCH_SUITE=throughput|scale|all):
 *
 * - throughput, the ATS at 0 ms: N `candidate.created` published to `platform.events` until all are in the
 *   ATS-A sandbox, through candidate-sync (1 process, with and without metrics and log context), through an
 *   exactly-once baseline (a bare amqplib consumer doing the durable bookkeeping by hand: one claim insert,
 *   the POST, one update, one confirmed publish) and through a bare consumer that only POSTs. CPU per event
 *   of the candidate-sync process is read from /proc.
 * - scale, the ATS at 150 ms (+0–50 ms jitter): the same with 1, 2 and 3 candidate-sync processes; then
 *   per person an application and a CV (candidate-sync and document-service, 1 and 3 processes each).
 *
 *   node -r @swc-node/register bench/candidate-pipeline/candidate-pipeline.bench.ts
 *
 * Env: BENCH_SUITE (all; `candidate-sync`: its first row only, to compare commits; `baselines`: that row and the two baselines;
 * `applications`: the application + document rows only), BENCH_EVENTS (3000), BENCH_SCALE_EVENTS (1500), BENCH_PEOPLE (500, the
 * application + document rows), BENCH_PREFETCH (32), BENCH_WARMUP (200 events per process before each row), BENCH_LATENCY_MS (150), BENCH_JITTER_MS (50),
 * BENCH_BEFORE (another checkout whose candidate-sync runs the × 1 and × 3 rows too, side by side) and
 * BENCH_BEFORE_LABEL (how its rows are named).
 * Needs Postgres and RabbitMQ (DATABASE_URL, RABBITMQ_URL as for the tests). Latency is from the publish of
 * an event to the sandbox's CreationDate of its record (same clock: the sandbox runs in this process). Every
 * run fails on a missing or duplicate record.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import amqplib from 'amqplib';
import { Pool } from 'pg';
import { Agent } from 'undici';
import { startAtsASandbox, type RunningAtsASandbox } from '@connector/ats-a-sandbox';
import {
  type ApplicationDataDto,
  type CandidateDataDto,
  type ConnectorSnapshot,
  createEvent,
  type DocumentDataDto,
  type EventEnvelope,
  Exchange,
  Queue,
  RoutingKey,
} from '@connector/contracts';
import { DEFAULT_RETRY_DELAYS_MS, RabbitConnection, retryQueueName, RpcClient } from '@connector/messaging';
import {
  createTestDatabase,
  createTestVhost,
  type FileServer,
  rabbitUrl,
  startFileServer,
  startService,
  type ServiceProcess,
  TestBroker,
} from '@connector/testing';
import { saveAtsACredentials, startConnectorDirectoryStub } from '@connector/service-stubs';
import { procStat } from '../proc-stats';
import { publishPlatformEvents } from '../platform-events';
import { percentile } from '../bench-run';

const SUITE = process.env.BENCH_SUITE ?? 'all';
const EVENTS = Number(process.env.BENCH_EVENTS ?? 3000);
const SCALE_EVENTS = Number(process.env.BENCH_SCALE_EVENTS ?? 1500);
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 500);
const PREFETCH = Number(process.env.BENCH_PREFETCH ?? 32);
/** Events each consumer process takes before a row is measured (JIT warm-up; a worker runs for days). */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 150);
const JITTER_MS = Number(process.env.BENCH_JITTER_MS ?? 50);
/** Another checkout (e.g. `git archive <commit>` unpacked, node_modules linked): its candidate-sync gets rows too. */
const BEFORE = process.env.BENCH_BEFORE;
const BEFORE_LABEL = process.env.BENCH_BEFORE_LABEL ?? 'before';
const ACCOUNT = 'acct_bench';
const CONNECTOR_ID = `bench-ats-a-${randomUUID().slice(0, 8)}`;
const CLIENT_SECRET = `secret-${randomBytes(8).toString('hex')}`;
const connectors = new Map<string, ConnectorSnapshot>();

interface Result {
  suite: string;
  name: string;
  events: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** CPU of the candidate-sync processes per event, ms (user + system). */
  cpuMsPerEvent?: number;
  /** The rest of the machine's CPU per event, ms: Postgres, RabbitMQ, and this process (sandbox, publisher, baselines). */
  machine?: MachineCpu;
}

interface MachineCpu {
  postgres: number;
  rabbitmq: number;
  bench: number;
}

/** CPU so far, ms, of every Postgres and RabbitMQ process (Linux /proc, by command name) and of this process. */
function machineCpuMs(): MachineCpu {
  const total = { postgres: 0, rabbitmq: 0, bench: 0 };
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const stat = procStat(Number(pid));
    if (!stat) continue; // ended meanwhile
    const { command, cpuMs } = stat;
    const group = command === 'postgres' ? 'postgres' : command.startsWith('beam') ? 'rabbitmq' : undefined;
    if (group) total[group] += cpuMs;
  }
  const own = process.cpuUsage();
  total.bench = (own.user + own.system) / 1000;
  return total;
}

/** The machine's CPU per event since `before` (Postgres backends that ended meanwhile are not counted). */
function machineCpuSince(before: MachineCpu, events: number): MachineCpu {
  const now = machineCpuMs();
  return {
    postgres: (now.postgres - before.postgres) / events,
    rabbitmq: (now.rabbitmq - before.rabbitmq) / events,
    bench: (now.bench - before.bench) / events,
  };
}

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

const candidateEvents = (run: string, count: number) =>
  Array.from({ length: count }, (_, i) => {
    const data = candidate(run, i);
    return { key: data.email, event: createEvent(RoutingKey.CandidateCreated, ACCOUNT, data) };
  });

/** Polls `arrived` (key → creation time) until `expected` records are in; fails on more (a duplicate). */
async function measure(
  name: string,
  expected: number,
  sent: Map<string, number>,
  arrived: () => Array<{ key: string; at: number }>,
): Promise<Omit<Result, 'suite'>> {
  const deadline = Date.now() + 10 * 60_000;
  let mine: Array<{ key: string; at: number }> = [];
  for (;;) {
    mine = arrived();
    if (mine.length >= expected) break;
    if (Date.now() > deadline) throw new Error(`${name}: only ${mine.length} of ${expected} arrived`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Late duplicates (a redelivery after an unsure write) would come shortly after: look once more.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  mine = arrived();
  const keys = new Set(mine.map((m) => m.key));
  if (mine.length !== expected || keys.size !== expected || [...keys].some((k) => !sent.has(k))) {
    throw new Error(`${name}: ${mine.length} records (${keys.size} distinct) for ${expected} events`);
  }
  const latencies = mine.map((m) => m.at - (sent.get(m.key) ?? NaN)).sort((a, b) => a - b);
  const first = Math.min(...sent.values());
  const last = Math.max(...mine.map((m) => m.at));
  const seconds = (last - first) / 1000;
  return {
    name,
    events: expected,
    seconds,
    perSecond: expected / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: latencies[latencies.length - 1],
  };
}

/** `count` events through the pipeline, each into the ATS once (checked), before the measured burst. */
async function warmUp(sandbox: RunningAtsASandbox, count: number): Promise<void> {
  if (count === 0) return;
  const run = `warm-${randomUUID().slice(0, 6)}`;
  await measure(
    'warm-up',
    count,
    await publishPlatformEvents(candidateEvents(run, count)),
    candidatesOf(sandbox, run),
  );
}

const candidatesOf = (sandbox: RunningAtsASandbox, run: string) => () =>
  sandbox.state
    .candidates()
    .filter((c) => c.Email.startsWith(`${run}.`))
    .map((c) => ({ key: c.Email, at: Date.parse(c.CreationDate) }));

/** User + system CPU of a process so far, ms (Linux /proc; clock ticks of 10 ms). */
function cpuMs(pid: number | undefined): number {
  if (!pid) return NaN;
  const stat = procStat(pid);
  if (!stat) throw new Error(`process ${pid} has ended`);
  return stat.cpuMs;
}

interface Pipeline {
  sandbox: RunningAtsASandbox;
  broker: TestBroker;
  env: Record<string, string>;
  files: FileServer;
  /** The auth-gateway the workers ask for access, and its settings (a checkout compared runs its own). */
  gateway: { process: ServiceProcess; env: Record<string, string> };
}

/** Starts `processes` candidate-sync processes (and as many document-service ones), runs `work`, stops them. */
async function withWorkers<T>(
  pipeline: Pipeline,
  processes: number,
  options: { documents?: boolean; env?: Record<string, string>; root?: string },
  /** Every worker started: the candidate-sync processes, then the document-service ones. */
  work: (workers: ServiceProcess[]) => Promise<T>,
): Promise<T> {
  const queues = withRetryQueues([Queue.CandidateSync, Queue.DocumentService]);
  const { broker, env } = pipeline;
  await broker.deleteQueuesIfPresent(queues);
  // Another checkout's workers talk to that checkout's auth-gateway (the broker trust check came later).
  if (options.root) await swapGateway(pipeline, options.root);
  const workers: ServiceProcess[] = await Promise.all(
    Array.from({ length: processes }, () =>
      startService('candidate-sync', { ...env, ...options.env }, 60_000, undefined, options.root),
    ),
  );
  const documents: ServiceProcess[] = options.documents
    ? await Promise.all(Array.from({ length: processes }, () => startService('document-service', env)))
    : [];
  try {
    return await work([...workers, ...documents]);
  } finally {
    await Promise.all([...workers, ...documents].map((w) => w.stop()));
    await broker.deleteQueuesIfPresent(queues);
    if (options.root) await swapGateway(pipeline);
  }
}

/** With their retry queues: a checkout compared (BENCH_BEFORE) may declare them with other arguments. */
const withRetryQueues = (queues: string[]) =>
  queues.flatMap((queue) => [
    queue,
    ...DEFAULT_RETRY_DELAYS_MS.map((delayMs) => retryQueueName(queue, delayMs)),
  ]);

/** Stops the running auth-gateway and starts the one of `root` (this checkout's when not given). */
async function swapGateway(pipeline: Pipeline, root?: string): Promise<void> {
  await pipeline.gateway.process.stop();
  await pipeline.broker.deleteQueuesIfPresent(withRetryQueues([Queue.AuthGateway]));
  pipeline.gateway.process = await startService(
    'auth-gateway',
    pipeline.gateway.env,
    60_000,
    undefined,
    root,
  );
}

async function candidateSyncRun(
  pipeline: Pipeline,
  processes: number,
  events: number,
  label = '',
  env: Record<string, string> = {},
  root?: string,
): Promise<Omit<Result, 'suite'>> {
  return withWorkers(pipeline, processes, { env, root }, async (workers) => {
    const run = `cs${processes}-${randomUUID().slice(0, 6)}`;
    await warmUp(pipeline.sandbox, WARMUP * processes);
    const before = workers.map((w) => cpuMs(w.child.pid));
    const machineBefore = machineCpuMs();
    const sent = await publishPlatformEvents(candidateEvents(run, events));
    const result = await measure(
      `candidate-sync × ${processes}${label}`,
      events,
      sent,
      candidatesOf(pipeline.sandbox, run),
    );
    // Less the second `measure` waits for late duplicates, when the processes are idle (~0 CPU).
    const cpu = workers.reduce((sum, w, i) => sum + cpuMs(w.child.pid) - before[i], 0);
    return { ...result, cpuMsPerEvent: cpu / events, machine: machineCpuSince(machineBefore, events) };
  });
}

/**
 * Per person: the candidate (waited for), then an application to a seeded vacancy and a CV, measured until
 * every application and file is in the sandbox.
 */
async function applicationsAndDocumentsRun(
  pipeline: Pipeline,
  processes: number,
): Promise<Omit<Result, 'suite'>> {
  const { sandbox, files } = pipeline;
  const vacancies = Array.from({ length: sandbox.state.vacancyCount() }, (_, i) => i + 1).filter((id) =>
    sandbox.state.getVacancy(id),
  );
  return withWorkers(pipeline, processes, { documents: true }, async (workers) => {
    const run = `ad${processes}-${randomUUID().slice(0, 6)}`;
    const people = candidateEvents(run, PEOPLE);
    const sentPeople = await publishPlatformEvents(people);
    await measure('candidates first', PEOPLE, sentPeople, candidatesOf(sandbox, run));
    const idOf = new Map(
      sandbox.state
        .candidates()
        .filter((c) => c.Email.startsWith(`${run}.`))
        .map((c) => [c.CandidateId, c.Email]),
    );
    const events: Array<{ key: string; event: EventEnvelope }> = [];
    for (const [i, { event }] of people.entries()) {
      const { candidateId, email } = event.data as CandidateDataDto;
      const application: ApplicationDataDto = {
        applicationId: `${run}-app-${i}`,
        candidateId,
        vacancies: [{ connectorId: CONNECTOR_ID, externalId: String(vacancies[i % vacancies.length]) }],
      };
      events.push({
        key: `application:${email}`,
        event: createEvent(RoutingKey.ApplicationSubmitted, ACCOUNT, application),
      });
      const content = Buffer.from(`%PDF-1.7 CV of ${candidateId} ${randomUUID()}`);
      const cv: DocumentDataDto = {
        documentId: `${run}-doc-${i}`,
        candidateId,
        kind: 'cv',
        fileName: `${run}-${i}.pdf`,
        contentType: 'application/pdf',
        sizeBytes: content.length,
        sha256: createHash('sha256').update(content).digest('hex'),
        url: files.serve(content),
      };
      events.push({
        key: `file:${cv.fileName}`,
        event: createEvent(RoutingKey.DocumentUploaded, ACCOUNT, cv),
      });
    }
    const before = workers.map((w) => cpuMs(w.child.pid));
    const machineBefore = machineCpuMs();
    const sent = await publishPlatformEvents(events);
    const result = await measure(
      `candidate-sync × ${processes} + document-service × ${processes}`,
      events.length,
      sent,
      () => [
        ...sandbox.state
          .applications()
          .filter((a) => idOf.has(a.Candidate.Id))
          .map((a) => ({ key: `application:${idOf.get(a.Candidate.Id)}`, at: Date.parse(a.CreationDate) })),
        ...sandbox.state
          .files()
          .filter((f) => f.fileName.startsWith(`${run}-`))
          .map((f) => ({ key: `file:${f.fileName}`, at: Date.parse(f.uploadedAt) })),
      ],
    );
    // Both services' processes: candidate-sync takes the applications, document-service the CVs.
    const cpu = workers.reduce((sum, w, i) => sum + cpuMs(w.child.pid) - before[i], 0);
    return {
      ...result,
      cpuMsPerEvent: cpu / events.length,
      machine: machineCpuSince(machineBefore, events.length),
    };
  });
}

async function atsAToken(sandbox: RunningAtsASandbox): Promise<string> {
  const tokenResponse = await fetch(`${sandbox.url}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: 'bench-client',
      client_secret: CLIENT_SECRET,
    }),
  });
  return ((await tokenResponse.json()) as { access_token: string }).access_token;
}

function atsABody(data: CandidateDataDto): string {
  return JSON.stringify({
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
  });
}

/**
 * A consumer of its own queue. `exactlyOnce`: the durable bookkeeping exactly-once needs, by hand and nothing
 * else (one claim insert, the POST, one update with the ATS id, one confirmed publish, then the ack), the floor
 * for that work on this machine. Otherwise the bare baseline: take the message, POST the body, ack.
 */
async function bareRun(
  sandbox: RunningAtsASandbox,
  databaseUrl: string,
  exactlyOnce: boolean,
): Promise<Omit<Result, 'suite'>> {
  const token = await atsAToken(sandbox);
  const http = new Agent();
  const pool = new Pool({ connectionString: databaseUrl, max: 10 });
  await pool.query(
    `CREATE TABLE IF NOT EXISTS bench_claim (id text PRIMARY KEY, state text NOT NULL, external_id text,
       updated_at timestamptz NOT NULL DEFAULT now())`,
  );
  const connection = await amqplib.connect(rabbitUrl());
  const channel = await connection.createConfirmChannel();
  const queue = `bench-bare-${randomUUID().slice(0, 8)}`;
  await channel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  await channel.bindQueue(queue, Exchange.PlatformEvents, RoutingKey.CandidateCreated);
  await channel.prefetch(PREFETCH);
  const handle = async (data: CandidateDataDto, id: string): Promise<void> => {
    if (exactlyOnce) {
      const claimed = await pool.query(
        `INSERT INTO bench_claim (id, state) VALUES ($1, 'pending') ON CONFLICT (id) DO NOTHING RETURNING id`,
        [id],
      );
      if (claimed.rowCount === 0) return; // seen before: a real consumer would look the record up
    }
    // The HTTP client candidate-sync uses: undici's request over a kept-alive pool.
    const response = await http.request({
      origin: sandbox.url,
      path: '/api/candidates',
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: atsABody(data),
    });
    const { CandidateId } = (await response.body.json()) as { CandidateId: number };
    if (!exactlyOnce) return;
    await pool.query(
      `UPDATE bench_claim SET state = 'linked', external_id = $2, updated_at = now() WHERE id = $1`,
      [id, String(CandidateId)],
    );
    const synced = createEvent(RoutingKey.CandidateSynced, ACCOUNT, {
      connectorId: CONNECTOR_ID,
      candidateId: data.candidateId,
      externalId: String(CandidateId),
      action: 'created',
    });
    await new Promise<void>((resolve, reject) =>
      channel.publish(
        Exchange.ConnectorEvents,
        synced.type,
        Buffer.from(JSON.stringify(synced)),
        { persistent: true, contentType: 'application/json', messageId: synced.id },
        (error) => (error ? reject(error as Error) : resolve()),
      ),
    );
  };
  await channel.consume(queue, (message) => {
    if (!message) return;
    const { id, data } = JSON.parse(message.content.toString()) as EventEnvelope<string, CandidateDataDto>;
    void handle(data, id).then(
      () => channel.ack(message),
      () => channel.nack(message, false, true),
    );
  });
  try {
    const run = `${exactlyOnce ? 'eo' : 'bare'}-${randomUUID().slice(0, 6)}`;
    await warmUp(sandbox, WARMUP);
    const machineBefore = machineCpuMs();
    const sent = await publishPlatformEvents(candidateEvents(run, EVENTS));
    const result = await measure(
      exactlyOnce ? 'exactly-once baseline (by hand)' : 'bare amqplib consumer',
      EVENTS,
      sent,
      candidatesOf(sandbox, run),
    );
    return { ...result, machine: machineCpuSince(machineBefore, EVENTS) };
  } finally {
    await channel.deleteQueue(queue);
    await connection.close();
    await pool.end();
    await http.close();
  }
}

async function main(): Promise<void> {
  // A vhost of its own, as the e2e suites: nothing the bench declares outlives it on the shared broker.
  const vhost = await createTestVhost('bench_candidates');
  process.env.RABBITMQ_URL = vhost.url;
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
  await broker.deleteQueuesIfPresent([
    Queue.ConnectorRegistry,
    Queue.CandidateSync,
    Queue.AuthGateway,
    Queue.DocumentService,
  ]);
  const registry = await startConnectorDirectoryStub(connectors);
  const files = await startFileServer();
  const gatewayEnv = {
    DATABASE_URL: database.url,
    RABBITMQ_URL: rabbitUrl(),
    ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    LOG_LEVEL: 'warn',
  };
  const gateway = { process: await startService('auth-gateway', gatewayEnv), env: gatewayEnv };
  const connection = new RabbitConnection({ url: rabbitUrl(), name: 'bench' });
  const rpc = new RpcClient(connection, 'connector-registry');
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
    const pipeline: Pipeline = {
      sandbox,
      broker,
      files,
      gateway,
      env: {
        DATABASE_URL: database.url,
        RABBITMQ_URL: rabbitUrl(),
        LOG_LEVEL: 'warn',
        PREFETCH: String(PREFETCH),
      },
    };
    const step = async (suite: string, name: string, run: () => Promise<Omit<Result, 'suite'>>) => {
      process.stdout.write(`${suite}: ${name}…\n`);
      results.push({ suite, ...(await run()) });
    };
    if (SUITE === 'candidate-sync' || SUITE === 'baselines') {
      await step('ATS at 0 ms', 'candidate-sync × 1', () => candidateSyncRun(pipeline, 1, EVENTS));
    }
    if (SUITE === 'baselines') {
      await step('ATS at 0 ms', 'exactly-once baseline', () => bareRun(sandbox, database.url, true));
      await step('ATS at 0 ms', 'bare consumer', () => bareRun(sandbox, database.url, false));
    }
    const before = (suite: string, processes: number, events: number) =>
      BEFORE
        ? step(suite, `candidate-sync × ${processes}, ${BEFORE_LABEL}`, () =>
            candidateSyncRun(pipeline, processes, events, `, ${BEFORE_LABEL}`, {}, BEFORE),
          )
        : Promise.resolve();
    if (SUITE === 'all' || SUITE === 'throughput') {
      const suite = 'ATS at 0 ms';
      await before(suite, 1, EVENTS);
      await step(suite, 'candidate-sync × 1', () => candidateSyncRun(pipeline, 1, EVENTS));
      // Metrics and log context on and off, twice in turn: their cost is smaller than this machine's noise.
      for (const round of ['', ' (again)']) {
        await step(suite, `candidate-sync × 1, metrics and log context off${round}`, () =>
          candidateSyncRun(pipeline, 1, EVENTS, `, metrics + log context off${round}`, {
            OBSERVABILITY: 'off',
          }),
        );
        if (round) {
          await step(suite, `candidate-sync × 1 (again)`, () =>
            candidateSyncRun(pipeline, 1, EVENTS, ' (again)'),
          );
        }
      }
      await step(suite, 'exactly-once baseline', () => bareRun(sandbox, database.url, true));
      await step(suite, 'bare consumer', () => bareRun(sandbox, database.url, false));
    }
    if (SUITE === 'all' || SUITE === 'scale' || SUITE === 'applications') {
      const suite = `ATS at ${LATENCY_MS} ms (+0–${JITTER_MS})`;
      sandbox.state.setFaults({ latencyMs: LATENCY_MS, jitterMs: JITTER_MS });
      if (SUITE !== 'applications') {
        await before(suite, 1, SCALE_EVENTS);
        await before(suite, 3, SCALE_EVENTS);
        for (const processes of [1, 2, 3]) {
          await step(suite, `candidate-sync × ${processes}`, () =>
            candidateSyncRun(pipeline, processes, SCALE_EVENTS),
          );
        }
      }
      for (const processes of [1, 3]) {
        await step(suite, `applications + documents, × ${processes}`, () =>
          applicationsAndDocumentsRun(pipeline, processes),
        );
      }
      sandbox.state.setFaults({});
    }
  } finally {
    await rpc.close();
    await connection.close();
    await gateway.process.stop();
    await registry.close();
    await files.close();
    await broker.close();
    await sandbox.close();
    await database.drop();
    await vhost.drop();
  }
  process.stdout.write(
    `\nprefetch ${PREFETCH}, load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`,
  );
  for (const suite of new Set(results.map((r) => r.suite))) {
    const rows = results.filter((r) => r.suite === suite);
    const first = rows.find((r) => r.name === 'candidate-sync × 1') ?? rows[0];
    const exactlyOnce = rows.find((r) => r.name.startsWith('exactly-once'));
    const bare = rows.find((r) => r.name.startsWith('bare'));
    const ratio = (r: Result, to: Result | undefined) => (to ? (r.perSecond / to.perSecond).toFixed(2) : '–');
    process.stdout.write(`\n${suite}\n\n`);
    process.stdout.write(
      '| pipeline | events | events/s | × candidate-sync × 1 | × exactly-once | × bare | CPU ms/event | Postgres | RabbitMQ | bench process | p50 ms | p99 ms | max ms | total s |\n',
    );
    process.stdout.write('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n');
    for (const r of rows) {
      process.stdout.write(
        `| ${r.name} | ${r.events} | ${r.perSecond.toFixed(0)} | ${ratio(r, first)} | ${ratio(r, exactlyOnce)} | ${ratio(r, bare)} | ${r.cpuMsPerEvent?.toFixed(2) ?? '–'} | ${r.machine?.postgres.toFixed(2) ?? '–'} | ${r.machine?.rabbitmq.toFixed(2) ?? '–'} | ${r.machine?.bench.toFixed(2) ?? '–'} | ${r.p50} | ${r.p99} | ${r.max} | ${r.seconds.toFixed(1)} |\n`,
      );
    }
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
