/**
 * Throughput of the ATS-B sandbox with latency injection off.
 *
 *   node -r @swc-node/register bench/ats-b-sandbox-throughput.ts
 *
 * Env: BENCH_JOBS (default 100000), BENCH_DURATION seconds per scenario (default 10), BENCH_CONNECTIONS
 * (default 50). The sandbox runs in this process; autocannon runs as a separate process so they do not share
 * an event loop. The per-minute limit is lifted: the benchmark measures the server, not the 429 path.
 */
import { startAtsBSandbox } from '@connector/ats-b-sandbox';
import { driveLoginForm } from '@connector/ats-b-sandbox/testing';
import { autocannon, intEnv } from './autocannon';

interface Scenario {
  name: string;
  method: 'GET' | 'PUT';
  path: string;
  body?: unknown;
}

async function main(): Promise<void> {
  const jobs = intEnv('BENCH_JOBS', 100_000);
  const duration = intEnv('BENCH_DURATION', 10);
  const connections = intEnv('BENCH_CONNECTIONS', 50);
  const seeded = Date.now();
  const sandbox = await startAtsBSandbox({ seed: { jobs, seed: 1 }, perMinuteLimit: 1_000_000_000 });
  console.log(
    `sandbox at ${sandbox.url} with ${jobs} jobs (seeded and listening in ${Date.now() - seeded} ms)`,
  );

  // The real login: HTML form → code → token → login, as the connector does it.
  const redirect = 'http://127.0.0.1:9/callback';
  const authorize = `${sandbox.oauthUrl}/authorize?${new URLSearchParams({ client_id: 'platform-client', response_type: 'code', redirect_uri: redirect, state: 'bench' })}`;
  const code =
    new URL(
      await driveLoginForm(authorize, { username: 'recruiter', password: 'recruiter-pass' }),
    ).searchParams.get('code') ?? '';
  const tokenParams = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    client_id: 'platform-client',
    client_secret: 'platform-secret',
    redirect_uri: redirect,
  });
  const tokens = (await (
    await fetch(`${sandbox.oauthUrl}/token?${tokenParams}`, { method: 'POST' })
  ).json()) as { access_token: string };
  const login = (await (
    await fetch(`${sandbox.restLoginUrl}/login?version=*&access_token=${tokens.access_token}`, {
      method: 'POST',
    })
  ).json()) as {
    BhRestToken: string;
    restUrl: string;
  };

  const ids50 = Array.from({ length: 50 }, (_, i) => 1 + i * 97).join(',');
  const allFields =
    'id,title,address,publicDescription,description,skillList,employmentType,status,isOpen,isPublic,dateLastModified,clientCorporation,clientContact';
  const scenarios: Scenario[] = [
    { name: 'GET ping', method: 'GET', path: 'ping' },
    {
      name: 'GET entity/JobOrder/{id}?fields=id,title',
      method: 'GET',
      path: 'entity/JobOrder/4242?fields=id,title',
    },
    {
      name: 'GET entity/JobOrder/{50 ids} (all fields)',
      method: 'GET',
      path: `entity/JobOrder/${ids50}?fields=${allFields}`,
    },
    {
      name: 'GET search/JobOrder isOpen:1 AND isDeleted:0, fields=id, count=500 (page 10)',
      method: 'GET',
      path: `search/JobOrder?query=${encodeURIComponent('isOpen:1 AND isDeleted:0')}&fields=id&start=5000&count=500&sort=id`,
    },
    {
      name: 'PUT entity/Candidate',
      method: 'PUT',
      path: 'entity/Candidate',
      body: { firstName: 'Zoë', lastName: 'Bench', name: 'Zoë Bench', status: 'New Lead' },
    },
  ];

  const rows: string[] = [];
  for (const scenario of scenarios) {
    const headers: Record<string, string> = { BhRestToken: login.BhRestToken };
    if (scenario.body !== undefined) headers['content-type'] = 'application/json';
    const result = await autocannon(`${login.restUrl}${scenario.path}`, {
      method: scenario.method,
      body: scenario.body,
      headers,
      duration,
      connections,
    });
    const row = `| ${scenario.name} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${result.non2xx + result.errors} |`;
    console.log(row);
    rows.push(row);
  }
  console.log('\n| scenario | req/s (avg) | p50 ms | p99 ms | non-2xx + errors |\n|---|---|---|---|---|');
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
