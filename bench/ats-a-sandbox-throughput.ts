/**
 * Throughput of the ATS-A sandbox with latency injection off.
 *
 *   node -r @swc-node/register bench/ats-a-sandbox-throughput.ts
 *
 * Env: BENCH_VACANCIES (default 100000), BENCH_DURATION seconds per scenario (default 10), BENCH_CONNECTIONS
 * (default 50). The sandbox runs in this process; autocannon runs as a separate process so they do not share
 * an event loop.
 */
import { startAtsASandbox } from '@connector/ats-a-sandbox';
import { autocannon, intEnv } from './autocannon';

interface Scenario {
  name: string;
  path: string;
  body: unknown;
  auth: boolean;
}

async function main(): Promise<void> {
  const vacancies = intEnv('BENCH_VACANCIES', 100_000);
  const duration = intEnv('BENCH_DURATION', 10);
  const connections = intEnv('BENCH_CONNECTIONS', 50);
  const seeded = Date.now();
  const sandbox = await startAtsASandbox({ seed: { vacancies, seed: 1 }, dailyLimit: 1_000_000_000 });
  console.log(
    `sandbox at ${sandbox.url} with ${vacancies} vacancies (seeded and listening in ${Date.now() - seeded} ms)`,
  );
  const credentials = {
    grant_type: 'client_credentials',
    client_id: 'demo-client',
    client_secret: 'demo-secret',
  };
  const tokenResponse = await fetch(`${sandbox.url}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  const weekAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();

  const scenarios: Scenario[] = [
    { name: 'POST /api/token', path: '/api/token', body: credentials, auth: false },
    {
      name: 'POST /api/vacancies/search (1 per page)',
      path: '/api/vacancies/search',
      body: { Paging: { RecordsPerPage: 1, RequestedPage: 1 } },
      auth: true,
    },
    {
      name: 'POST /api/vacancies/search (ModificationDate > 30 days ago, 100 per page, 3 blocks)',
      path: '/api/vacancies/search',
      body: {
        Paging: { RecordsPerPage: 100, RequestedPage: 2 },
        Filters: [{ Route: 'Vacancy.ModificationDate', Operation: 'GreaterThan', Value: weekAgo }],
        ResponseBlocks: ['Title', 'VacancyStatus', 'ModificationDate'],
      },
      auth: true,
    },
    {
      name: 'POST /api/contacts/search (In on 100 ids)',
      path: '/api/contacts/search',
      body: {
        Paging: { RecordsPerPage: 100, RequestedPage: 1 },
        Filters: [
          {
            Route: 'Contact.ContactId',
            Operation: 'In',
            Value: Array.from({ length: 100 }, (_, i) => 2_000_001 + i * 7),
          },
        ],
      },
      auth: true,
    },
  ];

  const rows: string[] = [];
  for (const scenario of scenarios) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (scenario.auth) headers['authorization'] = `Bearer ${token}`;
    const cpuBefore = process.cpuUsage();
    const result = await autocannon(`${sandbox.url}${scenario.path}`, {
      method: 'POST',
      body: scenario.body,
      headers,
      duration,
      connections,
    });
    const cpu = process.cpuUsage(cpuBefore);
    // CPU time the sandbox spent per request: a figure that does not depend on what else shares the machine.
    const cpuUs = (cpu.user + cpu.system) / Math.max(1, result.requests.total);
    const row =
      `| ${scenario.name} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} ` +
      `| ${result.non2xx + result.errors} | ${Math.round(cpuUs)} | ${Math.round(1e6 / cpuUs)} |`;
    console.log(row);
    rows.push(row);
  }
  console.log(
    '\n| scenario | req/s (avg) | p50 ms | p99 ms | non-2xx + errors | sandbox CPU µs/req | req/s per free core |\n|---|---|---|---|---|---|---|',
  );
  console.log(rows.join('\n'));
  console.log(
    `\nmemory: rss ${Math.round(process.memoryUsage().rss / 1048576)} MiB, heap ${Math.round(process.memoryUsage().heapUsed / 1048576)} MiB`,
  );
  await sandbox.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
