/**
 * The fleet bench (issue 24): N connectors, each on its own ATS customer system (a tenant of the sandboxes:
 * ATS-A at `/t/<name>`, ATS-B a customer of its own behind the vendor's one login), every one synced each
 * `FLEET_INTERVAL_MINUTES`, the ATS answering after 150 ms + jitter. The real services run as processes
 * (connector-registry, auth-gateway, vacancy-sync × each of FLEET_PROCESSES), connectors are created through
 * the admin API (ATS-B authorized through the registry's login flow), and for FLEET_MINUTES after the last one
 * is connected the bench measures what the schedule did (from `sync_run`) and what it cost (from /proc and
 * Postgres). Then a simulated day of run history and the services' retention job (`retention-hook.ts`).
 *
 *   node -r @swc-node/register bench/fleet/fleet.bench.ts
 *
 * Env: FLEET_ATS_A (200), FLEET_ATS_B (0), FLEET_MINUTES (3), FLEET_PROCESSES (1,2), FLEET_INTERVAL_MINUTES (1),
 * FLEET_LATENCY_MS (150), FLEET_JITTER_MS (50), FLEET_VACANCIES (20 per ATS-A system), FLEET_JOBS (20 per
 * ATS-B system), FLEET_CONNECT_CONCURRENCY (16), FLEET_VACANCY_SYNC_ENV (`K=V K=V`, e.g. `RUN_CONCURRENCY=64`),
 * FLEET_TOKEN_TTL_SECONDS (the ATS-A systems' token lifetime; unset: the sandbox's 3599; the report gives token
 * renewals a second and auth-gateway's credentials answers), FLEET_RETENTION (1; 0 skips the simulated day), FLEET_HISTORY_DAYS (1), FLEET_RETENTION_ENV (`K=V …`, given
 * to the registry and vacancy-sync of the retention step, e.g. `RUN_HISTORY_DAYS=1`).
 * Event feed (issue 28): FLEET_EVENTS (0; 1 puts the ATS-B connectors on the vendor's event subscriptions,
 * read every FLEET_EVENT_POLL_SECONDS, 60), FLEET_EVENT_CHANGES (300 job orders changed during the window in
 * half of the ATS-B systems; the other half stay quiet): the report adds change → `vacancy.upserted` lag and
 * the quiet connectors' ATS calls per poll (`event-feed-probe.ts`).
 * Needs Postgres and RabbitMQ (DATABASE_URL, RABBITMQ_URL as for the tests); a database and a vhost per row.
 * All traffic stays on 127.0.0.1; every wait is bounded.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Pool } from 'pg';
import { startAtsASandbox, type RunningAtsASandbox } from '@connector/ats-a-sandbox';
import { startAtsBSandbox, type RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import { driveLoginForm } from '@connector/ats-b-sandbox/testing';
import { ATS_TYPES, type AtsType } from '@connector/ats-registry';
import { RoutingKey } from '@connector/contracts';
import {
  adminApi,
  createSuiteInfrastructure,
  metricValue,
  scrapeMetrics,
  type ServiceProcess,
  type SuiteInfrastructure,
} from '@connector/testing';
import {
  envNumber,
  envPairs,
  inPool,
  runBench,
  startBenchService as start,
  stopBenchServices,
  useInfrastructure,
} from '../bench-run';
import { cpuMsOfCommand, procStat, rssMiB } from '../proc-stats';
import { type ConnectedAt, type RunStart, type ScheduleStats, scheduleStats } from './fleet-stats';
import { type EventFeedResult, type EventFeedTenant, probeEventFeed } from './event-feed-probe';
import { type RetentionResult, simulatedDayOfRetention } from './retention-hook';

const ATS_A = envNumber('FLEET_ATS_A', 200);
const ATS_B = envNumber('FLEET_ATS_B', 0);
const MINUTES = envNumber('FLEET_MINUTES', 3);
const PROCESSES = (process.env.FLEET_PROCESSES ?? '1,2').split(',').map(Number);
const INTERVAL_MINUTES = envNumber('FLEET_INTERVAL_MINUTES', 1);
const LATENCY_MS = envNumber('FLEET_LATENCY_MS', 150);
const JITTER_MS = envNumber('FLEET_JITTER_MS', 50);
const VACANCIES = envNumber('FLEET_VACANCIES', 20);
const JOBS = envNumber('FLEET_JOBS', 20);
const CONCURRENCY = Math.max(1, envNumber('FLEET_CONNECT_CONCURRENCY', 16));
const VACANCY_SYNC_ENV = envPairs('FLEET_VACANCY_SYNC_ENV');
const RETENTION = envNumber('FLEET_RETENTION', 1) > 0;
const HISTORY_DAYS = envNumber('FLEET_HISTORY_DAYS', 1);
const RETENTION_ENV = envPairs('FLEET_RETENTION_ENV');
const EVENTS = envNumber('FLEET_EVENTS', 0) > 0;
const EVENT_POLL_SECONDS = envNumber('FLEET_EVENT_POLL_SECONDS', 60);
const EVENT_CHANGES = envNumber('FLEET_EVENT_CHANGES', 300);
/** The ATS-A systems' token lifetime (`expires_in`); the sandbox's default, 3599, when unset. */
const TOKEN_TTL_SECONDS = process.env.FLEET_TOKEN_TTL_SECONDS
  ? envNumber('FLEET_TOKEN_TTL_SECONDS', 3599)
  : undefined;
if (PROCESSES.some((p) => !Number.isInteger(p) || p < 1)) throw new Error('FLEET_PROCESSES: e.g. 1,2');
if (!(ATS_A + ATS_B > 0 && MINUTES > 0 && INTERVAL_MINUTES >= 1)) {
  throw new Error('FLEET_ATS_A + FLEET_ATS_B, FLEET_MINUTES and FLEET_INTERVAL_MINUTES (≥ 1) must be set');
}
const INTERVAL_MS = INTERVAL_MINUTES * 60_000;
const WINDOW_MS = MINUTES * 60_000;

const ACCOUNT = 'acct_fleet';
const ADMIN_KEY = `fleet-${randomBytes(16).toString('hex')}`;
const ATS_A_CLIENT = { clientId: 'fleet-client', clientSecret: `secret-${randomBytes(8).toString('hex')}` };
const ATS_B_PASSWORD = 'recruiter-pass';
/** Tables whose size the report shows: run history, vacancy state, schedule, connectors, activity, outbox. */
const TABLES = [
  'sync_run',
  'run',
  'vacancy_state',
  'sync_connector',
  'connector',
  'connector_credential',
  'connector_activity',
  'connector_activity_event',
  'outbox_message',
];

interface Fleet {
  infra: SuiteInfrastructure;
  atsA: RunningAtsASandbox;
  atsB: RunningAtsBSandbox;
  registry: ServiceProcess;
  gateway: ServiceProcess;
  workers: ServiceProcess[];
  db: Pool;
}

interface Cost {
  /** vacancy-sync's CPU per run started in the window, ms, and each process's share of it. */
  cpuMsPerRun: number;
  shares: number[];
  /** Share of one core over the window. */
  core: {
    vacancySync: number;
    postgres: number;
    rabbitmq: number;
    registry: number;
    gateway: number;
    bench: number;
  };
  postgresMsPerRun: number;
  rssMiB: { vacancySync: number[]; registry: number; gateway: number; bench: number };
  atsCallsPerRun: number;
  tokens: TokenStats;
}

/** Token renewals over the window: what the ATS-A systems issued, and auth-gateway's answers to the services. */
interface TokenStats {
  /** `POST /api/token` answered by the ATS-A tenants, per second. */
  renewalsPerSecond: number;
  /** `credentials.requested` answered with credentials by auth-gateway (its /metrics), per second. */
  answeredPerSecond: number;
  /** `credentials.requested` answered with an error, by its code. */
  errors: Record<string, number>;
}

interface TableSize {
  table: string;
  rows: number;
  mib: number;
}

type Kind = AtsType;

interface Connected extends ConnectedAt {
  kind: Kind;
  /** The sandbox tenant (customer system) it is connected to. */
  tenant: string;
}

interface Row {
  processes: number;
  connectSeconds: number;
  schedule: ScheduleStats;
  /** The same per ATS kind, when the fleet has both. */
  byKind: Array<{ kind: Kind; schedule: ScheduleStats }>;
  cost: Cost;
  tables: TableSize[];
  events?: EventFeedResult;
}

async function startFleet(processes: number): Promise<Fleet> {
  const infra = await createSuiteInfrastructure(`bench_fleet_${processes}`);
  useInfrastructure(infra);
  const ats = { latencyMs: LATENCY_MS, jitterMs: JITTER_MS };
  const atsA = await startAtsASandbox({
    clients: [ATS_A_CLIENT],
    ...(TOKEN_TTL_SECONDS === undefined ? {} : { tokenTtlSeconds: TOKEN_TTL_SECONDS }),
    tenants: { max: ATS_A + 10, defaults: { ...ats, vacancies: VACANCIES } },
  });
  const atsB = await startAtsBSandbox({
    users: [{ username: 'recruiter', password: ATS_B_PASSWORD }],
    tenants: { max: ATS_B + 10, defaults: { ...ats, jobs: JOBS } },
  });
  // The whole fleet is one account here: its per-account limits (issue 33) are lifted to measure the fleet.
  const common = {
    ...infra.env,
    LOG_LEVEL: 'warn',
    MAX_CONNECTORS_PER_ACCOUNT: '100000',
    MAX_CONCURRENT_RUNS_PER_ACCOUNT: '10000',
    // Its connectors are created 16 at a time (FLEET_CONNECT_CONCURRENCY), each save a connection test.
    CONNECTION_TESTS_PER_ACCOUNT: String(CONCURRENCY),
    CONNECTION_TESTS_MAX: String(Math.max(8, CONCURRENCY)),
  };
  try {
    const registry = await start('connector-registry', {
      ...common,
      ADMIN_API_KEYS: `${ACCOUNT}:${ADMIN_KEY}`,
    });
    const gateway = await start('auth-gateway', {
      ...common,
      ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      ATS_B_OAUTH_URL: atsB.oauthUrl,
      ATS_B_REST_LOGIN_URL: atsB.restLoginUrl,
      ATS_B_REDIRECT_URI: `${registry.url}/oauth/ats-b/callback`,
    });
    const workers = await Promise.all(
      Array.from({ length: processes }, () => start('vacancy-sync', { ...common, ...VACANCY_SYNC_ENV })),
    );
    const db = new Pool({ connectionString: infra.database.url, max: 2 });
    return { infra, atsA, atsB, registry, gateway, workers, db };
  } catch (error) {
    await stopBenchServices();
    await atsA.close();
    await atsB.close();
    await infra.drop();
    useInfrastructure(undefined);
    throw error;
  }
}

async function stopFleet(fleet: Fleet): Promise<void> {
  await Promise.all([...fleet.workers, fleet.registry, fleet.gateway].map((p) => p.stop()));
  await fleet.db.end();
  await fleet.atsA.close();
  await fleet.atsB.close();
  await fleet.infra.drop();
  useInfrastructure(undefined);
}

/** Creates the connectors through the admin API, as a customer's admin would, each on its own ATS system. */
/** Creations asked again after a 503, over the run (printed with the row). */
let connectRetries = 0;

async function connectAll(fleet: Fleet): Promise<Connected[]> {
  const api = adminApi({ baseUrl: () => `${fleet.registry.url}/api/v1`, key: ADMIN_KEY });
  const options = { syncIntervalMinutes: INTERVAL_MINUTES };
  const created = (name: string, answer: { status: number; body: Record<string, unknown>; text: string }) => {
    if (answer.status !== 201)
      throw new Error(`${name}: the registry answered ${answer.status} ${answer.text}`);
    return String(answer.body['id']);
  };
  const atsA = (i: number) => async (): Promise<Connected> => {
    const name = `fleet a-${i}`;
    const config = { baseUrl: fleet.atsA.tenantUrl(`a-${i}`), ...ATS_A_CLIENT };
    // A provisioning client asks again after a 503 (auth-gateway busy or slow to answer), a few times.
    let answer = await api('POST', '/connectors', { body: { type: 'ats-a', name, config, options } });
    for (let retry = 0; answer.status === 503 && retry < 5; retry++) {
      connectRetries += 1;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      answer = await api('POST', '/connectors', { body: { type: 'ats-a', name, config, options } });
    }
    const id = created(name, answer);
    return { connectorId: id, at: Date.now(), kind: 'ats-a', tenant: `a-${i}` };
  };
  // ATS-B: create, Authorize, the customer's user logs in on the vendor's page, the registry's callback.
  const atsB = (i: number) => async (): Promise<Connected> => {
    const name = `fleet b-${i}`;
    const body = {
      type: 'ats-b',
      name,
      config: { routine: 'api-oauth', sendSmartCv: false },
      options: EVENTS ? { ...options, eventPollSeconds: EVENT_POLL_SECONDS } : options,
    };
    const id = created(name, await api('POST', '/connectors', { body }));
    const started = await api('POST', `/connectors/${id}/authorize`);
    const cookie = (started.headers.get('set-cookie') ?? '').split(';')[0];
    const redirect = await driveLoginForm(String(started.body['authorizeUrl']), {
      username: fleet.atsB.tenantUser('recruiter', `b-${i}`),
      password: ATS_B_PASSWORD,
    });
    const landed = await fetch(redirect, { headers: { cookie }, redirect: 'manual' });
    if (landed.status !== 302) throw new Error(`${name}: the callback answered ${landed.status}`);
    return { connectorId: id, at: Date.now(), kind: 'ats-b', tenant: `b-${i}` };
  };
  // Both kinds interleaved, so neither waits for the other to be connected.
  const jobs: Array<() => Promise<Connected>> = [];
  for (let i = 0; i < Math.max(ATS_A, ATS_B); i++) {
    if (i < ATS_A) jobs.push(atsA(i));
    if (i < ATS_B) jobs.push(atsB(i));
  }
  return inPool(jobs.length, CONCURRENCY, (i) => jobs[i]());
}

/** CPU so far, ms: the services' processes, Postgres's backends of this database, RabbitMQ, this process. */
async function cpuNow(fleet: Fleet): Promise<Record<string, number>> {
  const pids: number[] = (
    await fleet.db.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    )
  ).rows.map((r) => r.pid);
  const of = (pid: number | undefined) => (pid ? (procStat(pid)?.cpuMs ?? 0) : 0);
  const own = process.cpuUsage();
  return {
    ...Object.fromEntries(fleet.workers.map((w, i) => [`vacancySync${i}`, of(w.child.pid)])),
    ...Object.fromEntries(pids.map((pid) => [`pg${pid}`, of(pid)])),
    registry: of(fleet.registry.child.pid),
    gateway: of(fleet.gateway.child.pid),
    rabbitmq: cpuMsOfCommand((command) => command.startsWith('beam')),
    bench: (own.user + own.system) / 1000,
  };
}

/** Token calls the ATS-A tenants answered so far. */
function tokenCalls(fleet: Fleet): number {
  let calls = 0;
  for (const name of fleet.atsA.tenants.names())
    calls += fleet.atsA.tenants.get(name)?.state.callCounts().byEndpoint['POST /api/token'] ?? 0;
  return calls;
}

/** auth-gateway's `credentials.requested` answers so far: handled, and errors by code (its /metrics). */
async function credentialAnswers(fleet: Fleet): Promise<{ handled: number; errors: Record<string, number> }> {
  const type = { event_type: RoutingKey.CredentialsRequested };
  const samples = await scrapeMetrics(fleet.gateway.url).catch(() => []);
  const errors: Record<string, number> = {};
  for (const s of samples)
    if (s.name === 'connector_request_errors_total' && s.labels['event_type'] === type.event_type)
      errors[s.labels['code'] ?? '?'] = (errors[s.labels['code'] ?? '?'] ?? 0) + s.value;
  return { handled: metricValue(samples, 'connector_messages_handled_total', type), errors };
}

/** What the ATS sandboxes answered so far, over every tenant. */
function atsCalls(fleet: Fleet): number {
  let calls = 0;
  for (const name of fleet.atsA.tenants.names())
    calls += fleet.atsA.tenants.get(name)?.state.callCounts().total ?? 0;
  for (const name of fleet.atsB.tenants.names())
    calls += fleet.atsB.tenants.get(name)?.state.totalCalls() ?? 0;
  return calls;
}

async function tableSizes(db: Pool): Promise<TableSize[]> {
  const sizes: TableSize[] = [];
  for (const table of TABLES) {
    const exists = await db.query('SELECT to_regclass($1) AS oid', [`"${table}"`]);
    if (!exists.rows[0]?.oid) continue;
    const { rows } = await db.query<{ rows: string; bytes: string }>(
      `SELECT (SELECT count(*) FROM "${table}") AS rows, pg_total_relation_size('"${table}"') AS bytes`,
    );
    sizes.push({ table, rows: Number(rows[0].rows), mib: Number(rows[0].bytes) / 2 ** 20 });
  }
  return sizes;
}

async function runStarts(db: Pool): Promise<RunStart[]> {
  const { rows } = await db.query<{ connector_id: string; started_at: Date; status: string; quiet: boolean }>(
    `SELECT connector_id, started_at, status, upserted = 0 AND closed = 0 AS quiet
     FROM sync_run WHERE started_at IS NOT NULL`,
  );
  return rows.map((r) => ({
    connectorId: r.connector_id,
    startedAt: r.started_at.getTime(),
    status: r.status,
    unchanged: r.quiet,
  }));
}

async function fleetRow(
  processes: number,
  retention: boolean,
): Promise<{ row: Row; retention?: RetentionResult }> {
  const fleet = await startFleet(processes);
  try {
    const connectStarted = Date.now();
    const connected = await connectAll(fleet);
    const from = Date.now();
    const connectSeconds = (from - connectStarted) / 1000;
    process.stdout.write(
      `  ${connected.length} connected in ${connectSeconds.toFixed(0)} s (${connectRetries} creations asked again after a 503); measuring ${MINUTES} min…\n`,
    );
    const cpuBefore = await cpuNow(fleet);
    const callsBefore = atsCalls(fleet);
    const tokensBefore = tokenCalls(fleet);
    const answersBefore = await credentialAnswers(fleet);
    const events = EVENTS ? probeEvents(fleet, connected) : undefined;
    // Awaited after the window; until then a failure must not end the process as unhandled.
    events?.catch(() => undefined);
    const peakRss = new Map<number, number>();
    const sampleRss = () => {
      for (const p of [...fleet.workers, fleet.registry, fleet.gateway]) {
        const pid = p.child.pid ?? 0;
        peakRss.set(pid, Math.max(peakRss.get(pid) ?? 0, rssMiB(pid)));
      }
      peakRss.set(process.pid, Math.max(peakRss.get(process.pid) ?? 0, rssMiB(process.pid)));
    };
    while (Date.now() < from + WINDOW_MS) {
      sampleRss();
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(5_000, Math.max(0, from + WINDOW_MS - Date.now()))),
      );
    }
    const to = Date.now();
    sampleRss();
    const cpuAfter = await cpuNow(fleet);
    const eventFeed = await events;
    const calls = atsCalls(fleet) - callsBefore;
    const tokens = tokenCalls(fleet) - tokensBefore;
    const answers = await credentialAnswers(fleet);
    const runs = await runStarts(fleet.db);
    const schedule = scheduleStats(connected, runs, { from, to }, INTERVAL_MS);
    const byKind =
      ATS_A > 0 && ATS_B > 0
        ? ATS_TYPES.map((kind) => ({
            kind,
            schedule: scheduleStats(
              connected.filter((c) => c.kind === kind),
              runs,
              { from, to },
              INTERVAL_MS,
            ),
          }))
        : [];
    const delta = (key: string) => (cpuAfter[key] ?? 0) - (cpuBefore[key] ?? 0);
    // A Postgres backend that started in the window counts from zero; one that ended in it is lost (pools keep theirs).
    const postgres = Object.keys(cpuAfter)
      .filter((key) => key.startsWith('pg'))
      .reduce((total, key) => total + delta(key), 0);
    const vacancySync = fleet.workers.map((_, i) => delta(`vacancySync${i}`));
    const vacancySyncTotal = vacancySync.reduce((a, b) => a + b, 0);
    const seconds = (to - from) / 1000;
    const core = (ms: number) => ms / 1000 / seconds;
    const done = Math.max(1, schedule.done);
    const cost: Cost = {
      cpuMsPerRun: vacancySyncTotal / done,
      shares: vacancySync.map((ms) => ms / Math.max(1, vacancySyncTotal)),
      core: {
        vacancySync: core(vacancySyncTotal),
        postgres: core(postgres),
        rabbitmq: core(delta('rabbitmq')),
        registry: core(delta('registry')),
        gateway: core(delta('gateway')),
        bench: core(delta('bench')),
      },
      postgresMsPerRun: postgres / done,
      rssMiB: {
        vacancySync: fleet.workers.map((w) => peakRss.get(w.child.pid ?? 0) ?? NaN),
        registry: peakRss.get(fleet.registry.child.pid ?? 0) ?? NaN,
        gateway: peakRss.get(fleet.gateway.child.pid ?? 0) ?? NaN,
        bench: peakRss.get(process.pid) ?? NaN,
      },
      atsCallsPerRun: calls / done,
      tokens: {
        renewalsPerSecond: tokens / seconds,
        answeredPerSecond: (answers.handled - answersBefore.handled) / seconds,
        errors: Object.fromEntries(
          Object.entries(answers.errors)
            .map(([code, n]) => [code, n - (answersBefore.errors[code] ?? 0)] as const)
            .filter(([, n]) => n > 0),
        ),
      },
    };
    const row: Row = {
      processes,
      connectSeconds,
      schedule,
      byKind,
      cost,
      tables: await tableSizes(fleet.db),
      ...(eventFeed ? { events: eventFeed } : {}),
    };
    if (!retention) return { row };
    process.stdout.write(`  a simulated day of run history (${HISTORY_DAYS} d), then the retention job…\n`);
    // The row's processes give way to the retention step's (it starts them with its own settings).
    await Promise.all([...fleet.workers, fleet.registry].map((p) => p.stop()));
    const result = await simulatedDayOfRetention({
      db: fleet.db,
      env: { ...fleet.infra.env, LOG_LEVEL: 'info' },
      registryEnv: { ADMIN_API_KEYS: `${ACCOUNT}:${ADMIN_KEY}` },
      retentionEnv: RETENTION_ENV,
      days: HISTORY_DAYS,
      intervalMinutes: INTERVAL_MINUTES,
      tables: () => tableSizes(fleet.db),
      start,
    });
    return { row, retention: result };
  } finally {
    await stopFleet(fleet);
  }
}

/** The event-feed probe over the window: changes in every other ATS-B system, the rest quiet. */
function probeEvents(fleet: Fleet, connected: Connected[]): Promise<EventFeedResult> {
  const atsB: EventFeedTenant[] = connected
    .filter((c) => c.kind === 'ats-b')
    .map((c) => ({ tenant: c.tenant, connectorId: c.connectorId }));
  const pollMs = EVENT_POLL_SECONDS * 1000;
  return probeEventFeed({
    sandbox: fleet.atsB,
    rabbitUrl: fleet.infra.env.RABBITMQ_URL,
    busy: atsB.filter((_, i) => i % 2 === 0),
    quiet: atsB.filter((_, i) => i % 2 === 1),
    changes: EVENT_CHANGES,
    // Changes stop two and a half polls before the window's end, so each has time to arrive within it.
    spreadMs: Math.max(1_000, WINDOW_MS - 2.5 * pollMs),
    windowMs: WINDOW_MS,
    pollSeconds: EVENT_POLL_SECONDS,
    graceMs: 3 * pollMs,
  });
}

const f0 = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '–');
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '–');
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '–');
const pct = (n: number) => `${(n * 100).toFixed(0)} %`;
const errorCounts = (errors: Record<string, number>) =>
  Object.entries(errors)
    .map(([code, n]) => `${code} ${n}`)
    .join(', ') || '0';

function report(rows: Row[], retention: RetentionResult | undefined): string {
  const lines: string[] = [];
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  lines.push(
    `\n${ATS_A} ATS-A + ${ATS_B} ATS-B connectors, every ${INTERVAL_MINUTES} min, ATS at ${LATENCY_MS} ms + 0–${JITTER_MS} ms, ` +
      `${MINUTES} min measured after the last was connected; ATS-A tokens for ${TOKEN_TTL_SECONDS ?? 'the sandbox default'} s; ` +
      `vacancy-sync env ${JSON.stringify(VACANCY_SYNC_ENV)}; load average ${load}\n`,
  );
  lines.push(
    '| vacancy-sync | connect s | due | done | done/due | succeeded | failed | unchanged | idle connectors | interval p50 s | p95 s | max s | longest wait s | first sync p50 s | p95 s | max s | never synced |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const [label, s, connect] of rows.flatMap((r) => [
    [`× ${r.processes}`, r.schedule, f0(r.connectSeconds)] as const,
    ...r.byKind.map((k) => [`× ${r.processes}, ${k.kind} only`, k.schedule, ''] as const),
  ])) {
    lines.push(
      `| ${label} | ${connect} | ${s.due} | ${s.done} | ${f2(s.done / s.due)}× | ${s.succeeded} | ${s.failed} | ${s.unchanged} | ${s.idle} | ${f1(s.interval.p50)} | ${f1(s.interval.p95)} | ${f1(s.interval.max)} | ${f1(s.longestWait)} | ${f1(s.firstSync.p50)} | ${f1(s.firstSync.p95)} | ${f1(s.firstSync.max)} | ${s.neverSynced} |`,
    );
  }
  lines.push(
    '',
    '| vacancy-sync | CPU ms/run | split | vacancy-sync core | Postgres ms/run | Postgres core | RabbitMQ core (machine) | registry core | gateway core | bench + sandboxes core | ATS calls/run | token renewals/s | credentials answered/s | credential errors | RSS MiB vacancy-sync | registry | gateway | bench + sandboxes |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of rows) {
    const c = r.cost;
    lines.push(
      `| × ${r.processes} | ${f2(c.cpuMsPerRun)} | ${c.shares.map(pct).join(' / ')} | ${pct(c.core.vacancySync)} | ${f2(c.postgresMsPerRun)} | ${pct(c.core.postgres)} | ${pct(c.core.rabbitmq)} | ${pct(c.core.registry)} | ${pct(c.core.gateway)} | ${pct(c.core.bench)} | ${f1(c.atsCallsPerRun)} | ${f2(c.tokens.renewalsPerSecond)} | ${f2(c.tokens.answeredPerSecond)} | ${errorCounts(c.tokens.errors)} | ${c.rssMiB.vacancySync.map(f0).join(' / ')} | ${f0(c.rssMiB.registry)} | ${f0(c.rssMiB.gateway)} | ${f0(c.rssMiB.bench)} |`,
    );
  }
  lines.push(
    '',
    `| tables at the row's end | ${rows.map((r) => `× ${r.processes} rows | MiB`).join(' | ')} |`,
  );
  lines.push(`|---|${rows.map(() => '---|---').join('|')}|`);
  for (const table of TABLES) {
    const cells = rows.map((r) => {
      const t = r.tables.find((x) => x.table === table);
      return t ? `${t.rows} | ${f1(t.mib)}` : '– | –';
    });
    lines.push(`| ${table} | ${cells.join(' | ')} |`);
  }
  const withEvents = rows.filter((r) => r.events);
  if (withEvents.length > 0) {
    lines.push(
      '',
      `Event feed: ATS-B connectors read their subscription every ${EVENT_POLL_SECONDS} s; job orders changed in half of the systems, the other half quiet.`,
      '',
      '| vacancy-sync | changes | change → vacancy.upserted p50 s | p95 s | max s | not published | quiet connectors | polls due | ATS calls per quiet poll | event reads per quiet poll |',
      '|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const r of withEvents) {
      const e = r.events as EventFeedResult;
      const perPoll = (n: number) => f2(n / Math.max(1, e.quietPollsDue));
      lines.push(
        `| × ${r.processes} | ${e.changes} | ${f1(e.lag.p50)} | ${f1(e.lag.p95)} | ${f1(e.lag.max)} | ${e.unseen} | ${e.quietConnectors} | ${e.quietPollsDue} | ${perPoll(e.quietCalls)} | ${perPoll(e.quietEventReads)} |`,
      );
    }
  }
  if (retention) {
    lines.push(
      '',
      `Simulated day: ${retention.seeded} runs seeded in each of sync_run and run (${HISTORY_DAYS} d at the interval, per connector); retention: ${retention.note}`,
      '',
      '| table | rows before | MiB before | rows after | MiB after |',
      '|---|---|---|---|---|',
    );
    for (const before of retention.before) {
      const after = retention.after.find((t) => t.table === before.table);
      lines.push(
        `| ${before.table} | ${before.rows} | ${f1(before.mib)} | ${after?.rows ?? '–'} | ${f1(after?.mib ?? NaN)} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  let retention: RetentionResult | undefined;
  for (const [i, processes] of PROCESSES.entries()) {
    process.stdout.write(`fleet: vacancy-sync × ${processes}…\n`);
    const last = i === PROCESSES.length - 1;
    const result = await fleetRow(processes, RETENTION && last);
    rows.push(result.row);
    retention = result.retention ?? retention;
  }
  process.stdout.write(report(rows, retention));
}

// Stops by itself: a signal or a run far past its expected length ends every process it started.
runBench('fleet', (PROCESSES.length * (MINUTES + 20) + 30) * 60_000, main);
