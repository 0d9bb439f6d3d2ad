/**
 * vacancy-sync full syncs against the sandboxes: wall time, API calls, events and peak RSS of the worker
 * process, an unchanged second run, the ratio to a bare fetch script making the same minimal calls, and peak RSS
 * at 10× the vacancies.
 *
 *   node -r @swc-node/register bench/vacancy-sync/full-sync.bench.ts
 *
 * Env: BENCH_VACANCIES (10000), BENCH_JOBS (10000), BENCH_LATENCY_MS (20), BENCH_RSS_VACANCIES (100000; 0 skips).
 * Needs RabbitMQ and Postgres (RABBITMQ_URL / DATABASE_URL or the local defaults). Each scenario gets a fresh
 * vacancy-sync process, so its VmHWM is that scenario's peak.
 */
import { startAtsASandbox, type RunningAtsASandbox } from '@connector/ats-a-sandbox';
import { startAtsBSandbox } from '@connector/ats-b-sandbox';
import { createTestVhost } from '@connector/testing';
import { bareAtsAFullSync } from './bare-ats-a-sync';
import { BenchHarness, CLIENT_SECRET, peakRssMiB, type RunResult } from './bench-harness';

function intEnv(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
}

const VACANCIES = intEnv('BENCH_VACANCIES', 10_000);
const JOBS = intEnv('BENCH_JOBS', 10_000);
const LATENCY_MS = intEnv('BENCH_LATENCY_MS', 20);
const RSS_VACANCIES = intEnv('BENCH_RSS_VACANCIES', 100_000);

interface Row {
  scenario: string;
  wallS: number;
  apiCalls: number;
  calls: string;
  events: number;
  secondRunEvents?: number;
  /** An unchanged changes-only run right after: events and ATS calls. */
  changesOnlyRun?: string;
  peakRssMiB: number;
}

const rows: Row[] = [];
const seconds = (ms: number) => Math.round(ms / 10) / 100;

function onSiteOpen(sandbox: RunningAtsASandbox): number {
  let n = 0;
  for (let id = 1; id <= sandbox.state.vacancyCount(); id++) {
    const v = sandbox.state.getVacancy(id);
    if (v && v.IncludeOnSite && ['Open', 'Live'].includes(v.VacancyStatus.Description)) n++;
  }
  return n;
}

async function atsAScenario(
  harness: BenchHarness,
  vacancies: number,
  withBaseline: boolean,
): Promise<{ row: Row; ratio?: number; minimum: boolean }> {
  const sandbox = await startAtsASandbox({
    clients: [{ clientId: 'demo-client', clientSecret: CLIENT_SECRET }],
    seed: { vacancies, seed: 11 },
    latencyMs: LATENCY_MS,
    dailyLimit: 100_000_000,
  });
  const worker = await harness.startWorker();
  try {
    const connectorId = await harness.atsAConnector(sandbox);
    sandbox.state.resetCalls();
    const first: RunResult = await harness.run(connectorId, 'full');
    const peak = peakRssMiB(worker.child.pid ?? 0);
    const byEndpoint = sandbox.state.callCounts().byEndpoint;
    const pages = byEndpoint['POST /api/vacancies/search'] ?? 0;
    const contacts = byEndpoint['POST /api/contacts/search'] ?? 0;
    const companies = byEndpoint['POST /api/companies/search'] ?? 0;
    const statusLists = byEndpoint['GET /api/options/dropdown/{id}'] ?? 0;
    const minimum =
      pages === Math.ceil(onSiteOpen(sandbox) / 100) &&
      contacts <= pages &&
      companies <= pages &&
      statusLists <= 1;
    const second = await harness.run(connectorId, 'full');
    // A changes-only run over unchanged data: one (empty) listing call, nothing published.
    sandbox.state.resetCalls();
    const third = await harness.run(connectorId, 'incremental');
    const thirdCalls = sandbox.state.callCounts().total;
    const row: Row = {
      scenario: `ATS-A ${vacancies} vacancies, ${LATENCY_MS} ms latency`,
      wallS: seconds(first.wallMs),
      apiCalls: first.completed.apiCalls,
      calls:
        `${pages} pages + ${contacts} contacts + ${companies} companies + ${statusLists} status list` +
        ` (+${byEndpoint['POST /api/token'] ?? 0} token)`,
      events: first.events,
      secondRunEvents: second.events,
      changesOnlyRun: `${third.events} events, ${thirdCalls} calls`,
      peakRssMiB: Math.round(peak),
    };
    if (!withBaseline) return { row, minimum };
    const bare = await bareAtsAFullSync(sandbox.url, 'demo-client', CLIENT_SECRET);
    console.log(`bare fetch script: ${seconds(bare.wallMs)} s, ${bare.calls} calls, ${bare.live} live`);
    return { row, ratio: first.wallMs / bare.wallMs, minimum };
  } finally {
    await worker.stop();
    await sandbox.close();
  }
}

async function main(): Promise<void> {
  // A vhost of its own, as the e2e suites: nothing the bench declares outlives it on the shared broker.
  const vhost = await createTestVhost('bench_vacancies');
  process.env.RABBITMQ_URL = vhost.url;
  const atsB = await startAtsBSandbox({ seed: { jobs: JOBS, seed: 4 }, latencyMs: LATENCY_MS });
  const harness = await BenchHarness.start(atsB);
  try {
    const a = await atsAScenario(harness, VACANCIES, true);
    rows.push(a.row);

    const worker = await harness.startWorker();
    try {
      const connectorId = await harness.atsBConnector();
      atsB.state.resetCalls();
      const first = await harness.run(connectorId, 'full');
      const peak = peakRssMiB(worker.child.pid ?? 0);
      const counts = atsB.state.callCounts();
      const second = await harness.run(connectorId, 'full');
      rows.push({
        scenario: `ATS-B ${JOBS} jobs, ${LATENCY_MS} ms latency`,
        wallS: seconds(first.wallMs),
        apiCalls: first.completed.apiCalls,
        calls: `${counts['GET search/JobOrder'] ?? 0} id pages + ${counts['GET entity/JobOrder'] ?? 0} entity reads`,
        events: first.events,
        secondRunEvents: second.events,
        peakRssMiB: Math.round(peak),
      });
    } finally {
      await worker.stop();
    }

    let rssRatio: number | undefined;
    if (RSS_VACANCIES > 0) {
      const big = await atsAScenario(harness, RSS_VACANCIES, false);
      rows.push(big.row);
      rssRatio = big.row.peakRssMiB / a.row.peakRssMiB;
    }

    console.log(
      '\n| scenario | wall s | API calls | calls | events | events, unchanged 2nd run | unchanged changes-only run | peak RSS MiB |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    for (const r of rows) {
      console.log(
        `| ${r.scenario} | ${r.wallS} | ${r.apiCalls} | ${r.calls} | ${r.events} | ${r.secondRunEvents ?? '-'} | ${r.changesOnlyRun ?? '-'} | ${r.peakRssMiB} |`,
      );
    }
    console.log(`\nATS-A calls at the minimum: ${a.minimum}`);
    console.log(`vacancy-sync / bare fetch wall time (ATS-A ${VACANCIES}): ${a.ratio?.toFixed(2)}`);
    if (rssRatio !== undefined) {
      console.log(`peak RSS ${RSS_VACANCIES} / ${VACANCIES} vacancies: ${rssRatio.toFixed(2)} (limit 1.5)`);
    }
  } finally {
    await harness.stop();
    await atsB.close();
    await vhost.drop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
