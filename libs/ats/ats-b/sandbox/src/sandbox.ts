import type { AtsSandbox } from '@connector/ats-sandbox-core';
import { startAtsBSandbox } from './index';
import { optionsFromEnv } from './sandbox-env';

/** The ATS-B sandbox as the sandbox runner (tools/sandboxes.ts) starts it. */
export const sandbox: AtsSandbox = {
  type: 'ats-b',
  label: 'ATS-B sandbox',
  defaultPort: 4020,
  readyPath: '/__sandbox/calls',
  demoLogin: 'login recruiter / recruiter-pass',
  async start(env) {
    const running = await startAtsBSandbox(optionsFromEnv(env));
    return {
      url: running.url,
      describe:
        `ATS-B sandbox listening on ${running.url} (oauth ${running.oauthUrl}, admin ${running.url}/__sandbox)` +
        running.dataCentres.map((dc) => `; data centre ${dc.name} on ${dc.url}`).join(''),
      close: () => running.close(),
    };
  },
  // Waits for its login in the admin page.
  demoConnector: () => ({
    type: 'ats-b',
    name: 'Demo ATS-B',
    config: { routine: 'api-oauth', sendSmartCv: true },
  }),
  // auth-gateway's addresses of the vendor's login, and the callback the sandbox's OAuth client allows.
  serviceEnv: (url, publicUrl = 'http://127.0.0.1:3000') => ({
    ATS_B_OAUTH_URL: `${url}/oauth`,
    ATS_B_REST_LOGIN_URL: `${url}/rest-services`,
    ATS_B_REDIRECT_URI: `${publicUrl}/oauth/ats-b/callback`,
  }),
};
