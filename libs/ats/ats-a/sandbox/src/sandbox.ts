import { type AtsSandbox, intFromEnv } from '@connector/ats-sandbox-core';
import { type AtsASandboxClient, startAtsASandbox } from './index';

/** ATS_A_SANDBOX_CLIENTS="id:secret[,id:secret…]" */
function clientsFromEnv(env: NodeJS.ProcessEnv): AtsASandboxClient[] | undefined {
  const raw = env['ATS_A_SANDBOX_CLIENTS'];
  if (!raw) return undefined;
  return raw.split(',').map((pair) => {
    const separator = pair.indexOf(':');
    if (separator <= 0 || separator === pair.length - 1) {
      throw new Error(`ATS_A_SANDBOX_CLIENTS must be "clientId:clientSecret[,…]", got "${pair}"`);
    }
    return { clientId: pair.slice(0, separator).trim(), clientSecret: pair.slice(separator + 1).trim() };
  });
}

/** The ATS-A sandbox as the sandbox runner (tools/sandboxes.ts) starts it. */
export const sandbox: AtsSandbox = {
  type: 'ats-a',
  label: 'ATS-A sandbox',
  defaultPort: 4010,
  readyPath: '/__sandbox/quota',
  demoLogin: 'client demo-client / demo-secret',
  async start(env) {
    const running = await startAtsASandbox({
      port: intFromEnv(env, 'PORT', 4010),
      host: env['HOST'] || '127.0.0.1',
      clients: clientsFromEnv(env),
      dailyLimit: env['ATS_A_SANDBOX_DAILY_LIMIT']
        ? intFromEnv(env, 'ATS_A_SANDBOX_DAILY_LIMIT', 10_000)
        : undefined,
      seed: {
        vacancies: intFromEnv(env, 'ATS_A_SANDBOX_VACANCIES', 200),
        seed: intFromEnv(env, 'ATS_A_SANDBOX_SEED', 1),
      },
      latencyMs: intFromEnv(env, 'ATS_A_SANDBOX_LATENCY_MS', 0),
      jitterMs: intFromEnv(env, 'ATS_A_SANDBOX_JITTER_MS', 0),
      tenants: { max: intFromEnv(env, 'ATS_A_SANDBOX_MAX_TENANTS', 5_000) },
      indexLagMs: intFromEnv(env, 'ATS_A_SANDBOX_INDEX_LAG_MS', 0),
    });
    return {
      url: running.url,
      describe:
        `ATS-A sandbox listening on ${running.url} (API at ${running.url}/api, admin at ${running.url}/__sandbox; ` +
        `other customer systems at ${running.tenantUrl('<name>')})`,
      close: () => running.close(),
    };
  },
  demoConnector: (url) => ({
    type: 'ats-a',
    name: 'Demo ATS-A',
    config: { baseUrl: url, clientId: 'demo-client', clientSecret: 'demo-secret' },
  }),
};
