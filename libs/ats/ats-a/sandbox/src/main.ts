import { startAtsASandbox, type AtsASandboxClient } from './index';

/** Thin shell: environment → options, start, one log line, clean shutdown. */
function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/** ATS_A_SANDBOX_CLIENTS="id:secret[,id:secret…]" */
function clientsFromEnv(): AtsASandboxClient[] | undefined {
  const raw = process.env['ATS_A_SANDBOX_CLIENTS'];
  if (!raw) return undefined;
  return raw.split(',').map((pair) => {
    const separator = pair.indexOf(':');
    if (separator <= 0 || separator === pair.length - 1) {
      throw new Error(`ATS_A_SANDBOX_CLIENTS must be "clientId:clientSecret[,…]", got "${pair}"`);
    }
    return { clientId: pair.slice(0, separator).trim(), clientSecret: pair.slice(separator + 1).trim() };
  });
}

async function main(): Promise<void> {
  const dailyLimit = process.env['ATS_A_SANDBOX_DAILY_LIMIT']
    ? intFromEnv('ATS_A_SANDBOX_DAILY_LIMIT', 10_000)
    : undefined;
  const sandbox = await startAtsASandbox({
    port: intFromEnv('PORT', 4010),
    host: process.env['HOST'] || '127.0.0.1',
    clients: clientsFromEnv(),
    dailyLimit,
    seed: {
      vacancies: intFromEnv('ATS_A_SANDBOX_VACANCIES', 200),
      seed: intFromEnv('ATS_A_SANDBOX_SEED', 1),
    },
    latencyMs: intFromEnv('ATS_A_SANDBOX_LATENCY_MS', 0),
    jitterMs: intFromEnv('ATS_A_SANDBOX_JITTER_MS', 0),
    tenants: { max: intFromEnv('ATS_A_SANDBOX_MAX_TENANTS', 5_000) },
    indexLagMs: intFromEnv('ATS_A_SANDBOX_INDEX_LAG_MS', 0),
  });
  console.log(
    `ATS-A sandbox listening on ${sandbox.url} (API at ${sandbox.url}/api, admin at ${sandbox.url}/__sandbox; ` +
      `other customer systems at ${sandbox.tenantUrl('<name>')})`,
  );
  const shutdown = (): void => {
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('ATS-A sandbox failed to close', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  console.error('ATS-A sandbox failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
