/**
 * Noisy neighbours (issue 33): does one customer's trouble stay that customer's? 40 accounts, each with one
 * ATS-A connector on its own ATS-A system (a sandbox tenant: own address, own daily quota), every call answered
 * after 150 ms + jitter; connector-registry, auth-gateway and candidate-sync (1 process, default settings) as
 * processes, on a database and a vhost of each row's own. Rows:
 *
 * - baseline: 36 healthy accounts send 10 `candidate.created` each at once;
 * - bad neighbours: first three other accounts send 100 each (one ATS answers every call after 20 s, one has
 *   spent its day's quota, which resets in 3 minutes, one answers 503 to every candidate write), then the same
 *   healthy load;
 * - bad neighbours + tarpit: as above, and a fourth account presses "Test connection" against an address that
 *   accepts TCP and never answers, 25 at a time, for as long as the row runs.
 *
 * Measured: per healthy candidate, publish → its record in its ATS (the sandbox's CreationDate, same clock).
 * After a row with bad neighbours their ATSs recover (the slow one answers at the usual pace, the 503s stop,
 * the quota resets by itself) and the bench waits, bounded, for their events to land. Every candidate must be
 * in its ATS exactly once: a duplicate, or a healthy candidate that never lands, fails the run.
 *
 *   node -r @swc-node/register bench/noisy-neighbours/noisy-neighbours.bench.ts
 *
 * Env: NOISY_ROWS (baseline,bad,tarpit), NOISY_HEALTHY (36 accounts), NOISY_EVENTS (10 per healthy account),
 * NOISY_BULK (100 per bad account), NOISY_LATENCY_MS (150), NOISY_JITTER_MS (20), NOISY_SLOW_MS (20000),
 * NOISY_QUOTA_RESET_SECONDS (180), NOISY_TARPIT_CONCURRENCY (25), NOISY_HEAD_START_MS (2000: the bad
 * neighbours' bulks and the tests go first by this much), NOISY_WARMUP (1 candidate per account before the
 * row, unmeasured), NOISY_TIMEOUT_MINUTES (10, for the healthy load), NOISY_RECOVERY_MINUTES (8, for the bad
 * accounts' events after their ATSs recover; 0 skips that check), NOISY_SERVICE_ENV (`K=V …` for all three
 * services: none by default, so they run with their defaults).
 * Needs Postgres and RabbitMQ (DATABASE_URL, RABBITMQ_URL as for the tests). All traffic stays on 127.0.0.1.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { startAtsASandbox, type RunningAtsASandbox } from '@connector/ats-a-sandbox';
import { type CandidateDataDto, createEvent, RoutingKey } from '@connector/contracts';
import {
  adminApi,
  createSuiteInfrastructure,
  type ServiceProcess,
  type SuiteInfrastructure,
} from '@connector/testing';
import {
  envNumber,
  envPairs,
  inPool,
  percentile,
  runBench,
  startBenchService as start,
  stopBenchServices,
  useInfrastructure,
} from '../bench-run';
import { publishPlatformEvents } from '../platform-events';

const ROWS = (process.env.NOISY_ROWS ?? 'baseline,bad,tarpit').split(',').filter(Boolean);
const HEALTHY = envNumber('NOISY_HEALTHY', 36);
const EVENTS = envNumber('NOISY_EVENTS', 10);
const BULK = envNumber('NOISY_BULK', 100);
const LATENCY_MS = envNumber('NOISY_LATENCY_MS', 150);
const JITTER_MS = envNumber('NOISY_JITTER_MS', 20);
const SLOW_MS = envNumber('NOISY_SLOW_MS', 20_000);
const QUOTA_RESET_SECONDS = envNumber('NOISY_QUOTA_RESET_SECONDS', 180);
const TARPIT_CONCURRENCY = envNumber('NOISY_TARPIT_CONCURRENCY', 25);
const HEAD_START_MS = envNumber('NOISY_HEAD_START_MS', 2_000);
const WARMUP = envNumber('NOISY_WARMUP', 1);
const TIMEOUT_MS = envNumber('NOISY_TIMEOUT_MINUTES', 10) * 60_000;
const RECOVERY_MS = envNumber('NOISY_RECOVERY_MINUTES', 8) * 60_000;
const SERVICE_ENV = envPairs('NOISY_SERVICE_ENV');
const KNOWN_ROWS = ['baseline', 'bad', 'tarpit'] as const;
type RowKind = (typeof KNOWN_ROWS)[number];
if (ROWS.some((row) => !(KNOWN_ROWS as readonly string[]).includes(row)))
  throw new Error(`NOISY_ROWS: a list of ${KNOWN_ROWS.join(', ')}`);
if (!(HEALTHY >= 1 && EVENTS >= 1)) throw new Error('NOISY_HEALTHY and NOISY_EVENTS must be at least 1');

const ATS_A_CLIENT = { clientId: 'noisy-client', clientSecret: `secret-${randomBytes(8).toString('hex')}` };
const TITLES: Record<RowKind, string> = {
  baseline: 'baseline',
  bad: 'bad neighbours',
  tarpit: 'bad neighbours + tarpit',
};

/** The three customers whose ATS is in trouble during a row, and how. */
type Trouble = 'slow' | 'quota' | 'unavailable';
const TROUBLES: Trouble[] = ['slow', 'quota', 'unavailable'];

/** One platform account with one ATS-A connector on its own customer system (tenant `name`). */
interface Account {
  name: string;
  accountId: string;
  key: string;
}

const account = (name: string): Account => ({
  name,
  accountId: `acct_${name.replace(/-/g, '_')}`,
  key: `noisy-${randomBytes(12).toString('hex')}`,
});
const HEALTHY_ACCOUNTS = Array.from({ length: HEALTHY }, (_, i) => account(`healthy-${i}`));
const BAD_ACCOUNTS = Object.fromEntries(TROUBLES.map((t) => [t, account(t)])) as Record<Trouble, Account>;
/** The account that presses "Test connection" against the tarpit (its own connector is healthy and idle). */
const TESTER = account('tester');
const ACCOUNTS = [...HEALTHY_ACCOUNTS, ...TROUBLES.map((t) => BAD_ACCOUNTS[t]), TESTER];

interface Stack {
  infra: SuiteInfrastructure;
  sandbox: RunningAtsASandbox;
  services: ServiceProcess[];
  registryUrl: string;
}

interface Latencies {
  events: number;
  landed: number;
  p50: number;
  p95: number;
  max: number;
}

interface Recovery {
  events: number;
  landed: number;
  seconds: number;
}

interface TarpitStats {
  started: number;
  answered: number;
  p50: number;
  max: number;
}

interface Row {
  kind: RowKind;
  healthy: Latencies;
  recovery?: Recovery;
  tarpit?: TarpitStats;
  duplicates: number;
  /** Lines the services logged during the row (at LOG_LEVEL=warn: warnings and errors), by service. */
  logged: Record<string, number>;
  /** The most frequent of those, as `count × message`. */
  topLogs: string[];
}

async function startStack(kind: RowKind): Promise<Stack> {
  const infra = await createSuiteInfrastructure(`bench_noisy_${kind}`);
  useInfrastructure(infra);
  const sandbox = await startAtsASandbox({
    clients: [ATS_A_CLIENT],
    tenants: {
      max: ACCOUNTS.length + 10,
      defaults: { latencyMs: LATENCY_MS, jitterMs: JITTER_MS, vacancies: 5 },
    },
  });
  const common = { ...infra.env, LOG_LEVEL: 'warn', ...SERVICE_ENV };
  try {
    const registry = await start('connector-registry', {
      ...common,
      ADMIN_API_KEYS: ACCOUNTS.map((a) => `${a.accountId}:${a.key}`).join(','),
    });
    const gateway = await start('auth-gateway', {
      ...common,
      ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    });
    const candidateSync = await start('candidate-sync', common);
    return { infra, sandbox, services: [registry, gateway, candidateSync], registryUrl: registry.url };
  } catch (error) {
    await stopBenchServices();
    await sandbox.close();
    await infra.drop();
    useInfrastructure(undefined);
    throw error;
  }
}

async function stopStack(stack: Stack): Promise<void> {
  await Promise.all(stack.services.map((p) => p.stop()));
  await stack.sandbox.close();
  await stack.infra.drop();
  useInfrastructure(undefined);
}

const api = (stack: Stack, who: Account) =>
  adminApi({ baseUrl: () => `${stack.registryUrl}/api/v1`, key: who.key });

/** Every account's connector, created through the admin API (the registry's connection test included). */
async function connectAll(stack: Stack): Promise<void> {
  await inPool(ACCOUNTS.length, 8, async (i) => {
    const who = ACCOUNTS[i] as Account;
    const config = { baseUrl: stack.sandbox.tenantUrl(who.name), ...ATS_A_CLIENT };
    const answer = await api(stack, who)('POST', '/connectors', {
      body: { type: 'ats-a', name: `noisy ${who.name}`, config },
    });
    if (answer.status !== 201)
      throw new Error(`${who.name}: the registry answered ${answer.status} ${answer.text}`);
  });
}

function candidate(run: string, who: Account, i: number): CandidateDataDto {
  return {
    candidateId: `${run}-${who.name}-${i}`,
    firstName: 'Noisy',
    lastName: `Neighbour ${i}`,
    email: `${run}.${who.name}.${i}@noisy.example.com`,
    workHistory: [{ employer: 'Acme', title: 'Engineer', startDate: '2020-01', current: true }],
  };
}

/** `count` candidate.created for each account, published in one burst; key = email → publish time. */
function publishCandidates(run: string, accounts: Account[], count: number): Promise<Map<string, number>> {
  return publishPlatformEvents(
    accounts.flatMap((who) =>
      Array.from({ length: count }, (_, i) => {
        const data = candidate(run, who, i);
        return { key: data.email, event: createEvent(RoutingKey.CandidateCreated, who.accountId, data) };
      }),
    ),
  );
}

/** Records of `run` in the accounts' ATSs: email → creation times (more than one: a duplicate). */
function records(stack: Stack, run: string, accounts: Account[]): Map<string, number[]> {
  const found = new Map<string, number[]>();
  for (const who of accounts) {
    for (const c of stack.sandbox.tenants.get(who.name)?.state.candidates() ?? []) {
      if (!c.Email.startsWith(`${run}.`)) continue;
      found.set(c.Email, [...(found.get(c.Email) ?? []), Date.parse(c.CreationDate)]);
    }
  }
  return found;
}

/** Waits (polling, bounded) until every key of `sent` has a record; returns how many did. */
async function waitForRecords(
  stack: Stack,
  run: string,
  accounts: Account[],
  sent: Map<string, number>,
  timeoutMs: number,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const landed = [...records(stack, run, accounts).keys()].filter((k) => sent.has(k)).length;
    if (landed >= sent.size || Date.now() > deadline) return landed;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const duplicatesOf = (found: Map<string, number[]>) =>
  [...found.values()].reduce((n, times) => n + times.length - 1, 0);

/** A TCP server that accepts and never answers: a "Test connection" against it waits for someone's timeout. */
async function startTarpit(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** `TARPIT_CONCURRENCY` connection tests against the tarpit, each followed by the next, until `stop()`. */
function pressTestConnection(stack: Stack, tarpitUrl: string): { stop(): Promise<TarpitStats> } {
  let stopped = false;
  const took: number[] = [];
  let started = 0;
  const body = { type: 'ats-a', config: { baseUrl: tarpitUrl, ...ATS_A_CLIENT } };
  const workers = Array.from({ length: TARPIT_CONCURRENCY }, async () => {
    while (!stopped) {
      started++;
      const at = Date.now();
      try {
        const response = await fetch(`${stack.registryUrl}/api/v1/connectors/test`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TESTER.key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        await response.text();
        took.push(Date.now() - at);
      } catch {
        // Not answered at all (the registry gone, or our own bound): a pause before the next, no busy loop.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  });
  return {
    stop: async () => {
      stopped = true;
      // The tests in flight are left to end on their own (the tarpit closes under them).
      void Promise.all(workers);
      const sorted = [...took].sort((a, b) => a - b);
      return {
        started,
        answered: took.length,
        p50: percentile(sorted, 0.5),
        max: sorted[sorted.length - 1] ?? NaN,
      };
    },
  };
}

/** Puts each bad account's ATS in its trouble. */
async function makeTrouble(stack: Stack): Promise<void> {
  const tenant = async (t: Trouble) => (await stack.sandbox.tenants.open(BAD_ACCOUNTS[t].name)).state;
  (await tenant('slow')).setFaults({ latencyMs: SLOW_MS });
  const quota = await tenant('quota');
  quota.setQuota({
    used: quota.quota().limit,
    resetAt: new Date(Date.now() + QUOTA_RESET_SECONDS * 1000).toISOString(),
  });
  (await tenant('unavailable')).setFaults({ errorRate: { 'POST /api/candidates': 1 }, errorStatus: 503 });
}

/** The slow ATS answers at the usual pace again and the 503s stop; the quota resets by itself. */
async function endTrouble(stack: Stack): Promise<void> {
  for (const t of ['slow', 'unavailable'] as const)
    (await stack.sandbox.tenants.open(BAD_ACCOUNTS[t].name)).state.setFaults({});
}

async function runRow(kind: RowKind): Promise<Row> {
  const stack = await startStack(kind);
  const logFrom = stack.services.map((s) => s.output.length);
  try {
    await connectAll(stack);
    if (WARMUP > 0) {
      const warm = `warm-${randomUUID().slice(0, 6)}`;
      const sent = await publishCandidates(warm, ACCOUNTS, WARMUP);
      const landed = await waitForRecords(stack, warm, ACCOUNTS, sent, TIMEOUT_MS);
      if (landed < sent.size) throw new Error(`warm-up: ${landed} of ${sent.size} candidates landed`);
    }
    const run = `${kind}-${randomUUID().slice(0, 6)}`;
    const bad = kind === 'baseline' ? [] : TROUBLES.map((t) => BAD_ACCOUNTS[t]);
    let tarpit: Awaited<ReturnType<typeof startTarpit>> | undefined;
    let tests: ReturnType<typeof pressTestConnection> | undefined;
    let badSent = new Map<string, number>();
    if (kind !== 'baseline') {
      await makeTrouble(stack);
      if (kind === 'tarpit') {
        tarpit = await startTarpit();
        tests = pressTestConnection(stack, tarpit.url);
      }
      badSent = await publishCandidates(run, bad, BULK);
      await new Promise((resolve) => setTimeout(resolve, HEAD_START_MS));
    }
    process.stdout.write(`  ${kind}: ${HEALTHY} × ${EVENTS} healthy candidates…\n`);
    const sent = await publishCandidates(run, HEALTHY_ACCOUNTS, EVENTS);
    const landed = await waitForRecords(stack, run, HEALTHY_ACCOUNTS, sent, TIMEOUT_MS);
    const tarpitStats = await tests?.stop();
    await tarpit?.close();
    // Late duplicates (a redelivery after an unsure write) would come shortly after: look once more.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const healthyRecords = records(stack, run, HEALTHY_ACCOUNTS);
    const latencies = [...sent.entries()]
      .filter(([key]) => healthyRecords.has(key))
      .map(([key, at]) => Math.min(...(healthyRecords.get(key) as number[])) - at)
      .sort((a, b) => a - b);
    const healthy: Latencies = {
      events: sent.size,
      landed,
      p50: percentile(latencies, 0.5),
      p95: percentile(latencies, 0.95),
      max: latencies[latencies.length - 1] ?? NaN,
    };
    let recovery: Recovery | undefined;
    if (bad.length > 0 && RECOVERY_MS > 0) {
      await endTrouble(stack);
      process.stdout.write(
        `  ${kind}: waiting (at most ${RECOVERY_MS / 60_000} min) for the bad accounts' ${badSent.size} candidates…\n`,
      );
      const from = Date.now();
      const badLanded = await waitForRecords(stack, run, bad, badSent, RECOVERY_MS);
      recovery = { events: badSent.size, landed: badLanded, seconds: (Date.now() - from) / 1000 };
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const logged: Record<string, number> = {};
    const lines: string[] = [];
    stack.services.forEach((s, i) => {
      const mine = s.output.slice(logFrom[i]);
      logged[s.name] = mine.length;
      lines.push(...mine.map((line) => `${s.name}: ${logMessage(line)}`));
    });
    return {
      kind,
      healthy,
      ...(recovery ? { recovery } : {}),
      ...(tarpitStats ? { tarpit: tarpitStats } : {}),
      duplicates: duplicatesOf(records(stack, run, [...HEALTHY_ACCOUNTS, ...bad])),
      logged,
      topLogs: mostFrequent(lines, 6),
    };
  } finally {
    await stopStack(stack);
  }
}

/** A log line's message (the services log JSON), without what varies per line (ids, numbers). */
function logMessage(line: string): string {
  let text = line;
  try {
    const parsed = JSON.parse(line) as { msg?: unknown; message?: unknown };
    text = String(parsed.msg ?? parsed.message ?? line);
  } catch {
    // not JSON: the line as it is
  }
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '…')
    .replace(/\d+/g, 'N')
    .slice(0, 140);
}

function mostFrequent(lines: string[], most: number): string[] {
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, most)
    .map(([line, n]) => `${n} × ${line}`);
}

const s1 = (ms: number) => (Number.isFinite(ms) ? (ms / 1000).toFixed(1) : '–');

function report(rows: Row[]): string {
  const baseline = rows.find((r) => r.kind === 'baseline');
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const lines = [
    `\n${HEALTHY} healthy accounts × ${EVENTS} candidate.created, ATS at ${LATENCY_MS} ms + 0–${JITTER_MS} ms; ` +
      `bad neighbours ${BULK} each (slow ${SLOW_MS / 1000} s, quota resets in ${QUOTA_RESET_SECONDS} s, 503 on writes), ` +
      `${HEAD_START_MS} ms ahead; tarpit tests ${TARPIT_CONCURRENCY} at a time; service env ${JSON.stringify(SERVICE_ENV)}; load average ${load}\n`,
    '| row | healthy landed | p50 s | p95 s | max s | p95 × baseline | duplicates | bad accounts landed after recovery | in s | tarpit tests answered (of started) | test p50 s | logged warn+ (registry / gateway / candidate-sync) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const h = r.healthy;
    const ratio = baseline && r !== baseline ? `${(h.p95 / baseline.healthy.p95).toFixed(1)}×` : '';
    const rec = r.recovery;
    const t = r.tarpit;
    lines.push(
      `| ${TITLES[r.kind]} | ${h.landed} / ${h.events} | ${s1(h.p50)} | ${s1(h.p95)} | ${s1(h.max)} | ${ratio} | ${r.duplicates} | ` +
        `${rec ? `${rec.landed} / ${rec.events}` : ''} | ${rec ? rec.seconds.toFixed(0) : ''} | ` +
        `${t ? `${t.answered} (${t.started})` : ''} | ${t ? s1(t.p50) : ''} | ` +
        `${['connector-registry', 'auth-gateway', 'candidate-sync'].map((n) => r.logged[n] ?? 0).join(' / ')} |`,
    );
  }
  for (const r of rows.filter((row) => row.topLogs.length > 0)) {
    lines.push('', `Most frequent log lines, ${TITLES[r.kind]}:`, ...r.topLogs.map((l) => `- ${l}`));
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  for (const kind of KNOWN_ROWS.filter((k) => ROWS.includes(k))) {
    process.stdout.write(`noisy neighbours: ${TITLES[kind]}…\n`);
    rows.push(await runRow(kind));
  }
  process.stdout.write(report(rows));
  const lost = rows.filter((r) => r.healthy.landed < r.healthy.events);
  const duplicated = rows.filter((r) => r.duplicates > 0);
  if (lost.length + duplicated.length > 0) {
    throw new Error(
      `not exactly once: ${lost.map((r) => `${TITLES[r.kind]}: ${r.healthy.events - r.healthy.landed} healthy candidates never landed`).join('; ')}` +
        ` ${duplicated.map((r) => `${TITLES[r.kind]}: ${r.duplicates} duplicates`).join('; ')}`,
    );
  }
}

// Stops by itself: per row start-up, the healthy load's and the recovery's bounds, and a margin.
runBench('noisy-neighbours', ROWS.length * (TIMEOUT_MS * 2 + RECOVERY_MS + 5 * 60_000), main);
