import { type AtsSandbox, intFromEnv } from '@connector/ats-sandbox-core';
import { startTwLoginSandbox } from './lib/tw-login-sandbox.server';

/** Where `npm start`'s registry sends the browser back after the login (the callback `serviceEnv` names). */
export const DEMO_CALLBACK = 'http://127.0.0.1:3000/oauth/tw-login/callback';

/** "name:secret" from `env[name]`, or the default. */
function pairFrom(env: NodeJS.ProcessEnv, name: string, fallback: string): [string, string] {
  const raw = env[name] || fallback;
  const i = raw.indexOf(':');
  if (i <= 0 || i === raw.length - 1) throw new Error(`${name} must look like name:secret, got '${raw}'`);
  return [raw.slice(0, i), raw.slice(i + 1)];
}

/** The Login vendor's sandbox (a throwaway ATS of the tests) as the sandbox runner starts it. */
export const sandbox: AtsSandbox = {
  type: 'tw-login',
  label: 'Login vendor sandbox',
  defaultPort: 4012,
  readyPath: '/__sandbox/ready',
  demoLogin: 'login recruiter / recruiter-pass',
  async start(env) {
    const [clientId, clientSecret] = pairFrom(
      env,
      'TW_LOGIN_SANDBOX_CLIENT',
      'tw-platform:tw-platform-secret',
    );
    const [username, password] = pairFrom(env, 'TW_LOGIN_SANDBOX_USER', 'recruiter:recruiter-pass');
    const redirectUris = (env['TW_LOGIN_SANDBOX_REDIRECT_URIS'] || DEMO_CALLBACK).split(',');
    const running = await startTwLoginSandbox({
      port: intFromEnv(env, 'PORT', 4012),
      host: env['HOST'] || '127.0.0.1',
      client: { clientId, clientSecret, redirectUris },
      users: [{ username, password }],
      openings: intFromEnv(env, 'TW_LOGIN_SANDBOX_OPENINGS', 10),
    });
    return {
      url: running.url,
      describe: `Login vendor sandbox listening on ${running.url} (sign-in at ${running.url}/oauth/authorize)`,
      close: () => running.close(),
    };
  },
  // Waits for its login in the admin page.
  demoConnector: () => ({ type: 'tw-login', name: 'Demo Login vendor', config: {} }),
  serviceEnv: (url) => ({ TW_LOGIN_URL: url, TW_LOGIN_REDIRECT_URI: DEMO_CALLBACK }),
};
