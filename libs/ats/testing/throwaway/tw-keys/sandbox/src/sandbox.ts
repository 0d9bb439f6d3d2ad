import { type AtsSandbox, intFromEnv } from '@connector/ats-sandbox-core';
import { startTwKeysSandbox } from './lib/tw-keys-sandbox.server';

/** TW_KEYS_SANDBOX_CLIENTS="id:secret[,id:secret…]" (default the demo client). */
function clientsFromEnv(env: NodeJS.ProcessEnv): Array<{ clientId: string; clientSecret: string }> {
  return (env['TW_KEYS_SANDBOX_CLIENTS'] || 'demo-client:demo-secret').split(',').map((pair) => {
    const [clientId, clientSecret] = pair.split(':');
    if (!clientId || !clientSecret)
      throw new Error(`TW_KEYS_SANDBOX_CLIENTS must be "clientId:clientSecret[,…]", got "${pair}"`);
    return { clientId, clientSecret };
  });
}

/** The Keys vendor's sandbox (a throwaway ATS of the tests) as the sandbox runner starts it. */
export const sandbox: AtsSandbox = {
  type: 'tw-keys',
  label: 'Keys vendor sandbox',
  defaultPort: 4011,
  readyPath: '/__sandbox/ready',
  demoLogin: 'client demo-client / demo-secret',
  async start(env) {
    const running = await startTwKeysSandbox({
      port: intFromEnv(env, 'PORT', 4011),
      host: env['HOST'] || '127.0.0.1',
      clients: clientsFromEnv(env),
      jobs: intFromEnv(env, 'TW_KEYS_SANDBOX_JOBS', 12),
    });
    return {
      url: running.url,
      describe: `Keys vendor sandbox listening on ${running.url}`,
      close: () => running.close(),
    };
  },
  demoConnector: (url) => ({
    type: 'tw-keys',
    name: 'Demo Keys vendor',
    config: { baseUrl: url, clientId: 'demo-client', clientSecret: 'demo-secret' },
  }),
};
