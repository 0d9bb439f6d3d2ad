import { startAtsBSandbox, type RunningAtsBSandbox } from '../ats-b-sandbox.server';
import { driveLoginForm } from '../../test/login-form.driver';
import { tenantSeed } from './ats-b-tenants';

const REDIRECT = 'http://127.0.0.1:9999/oauth/ats-b/callback';
const CLIENT = { client_id: 'platform-client', client_secret: 'platform-secret' };

type Json = Record<string, unknown>;

interface Login {
  refreshToken: string;
  bhRestToken: string;
  restUrl: string;
}

/** The connector's way in, at the vendor-wide addresses only: login page, code, token, REST login. */
async function loginAs(sandbox: RunningAtsBSandbox, username: string): Promise<Login> {
  const authorize = `${sandbox.oauthUrl}/authorize?client_id=${CLIENT.client_id}&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT)}&state=s1`;
  const code = new URL(
    await driveLoginForm(authorize, { username, password: 'recruiter-pass' }),
  ).searchParams.get('code');
  const tokens = (await (
    await fetch(
      `${sandbox.oauthUrl}/token?${new URLSearchParams({ grant_type: 'authorization_code', code: code ?? '', redirect_uri: REDIRECT, ...CLIENT })}`,
      { method: 'POST' },
    )
  ).json()) as Json;
  expect(tokens).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String) });
  const login = await fetch(
    `${sandbox.restLoginUrl}/login?version=*&access_token=${String(tokens['access_token'])}`,
    { method: 'POST' },
  );
  expect(login.status).toBe(200);
  const session = (await login.json()) as { BhRestToken: string; restUrl: string };
  return {
    refreshToken: String(tokens['refresh_token']),
    bhRestToken: session.BhRestToken,
    restUrl: session.restUrl,
  };
}

const call = (login: Login, path: string, restUrl = login.restUrl) =>
  fetch(`${restUrl}${path}`, { headers: { BhRestToken: login.bhRestToken } });

const jobIds = async (login: Login): Promise<number[]> => {
  const res = await call(login, 'search/JobOrder?query=isOpen:1&fields=id,title&count=5');
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Array<{ id: number; title: string }> }).data.map((j) => j.id);
};

describe('ATS-B sandbox tenants: many customers behind the vendor-wide login', () => {
  let sandbox: RunningAtsBSandbox;

  beforeAll(async () => {
    sandbox = await startAtsBSandbox({ seed: { jobs: 40 }, tenants: { max: 3 } });
  });
  afterAll(() => sandbox.close());

  it("logs a tenant's user in at the vendor's addresses and hands out that tenant's restUrl", async () => {
    const acme = await loginAs(sandbox, sandbox.tenantUser('recruiter', 'acme'));
    expect(acme.restUrl.startsWith(`${sandbox.tenantUrl('acme')}/rest-services/`)).toBe(true);
    expect(acme.refreshToken.startsWith('rt-acme.')).toBe(true);
    const ping = await call(acme, 'ping');
    expect(ping.status).toBe(200);
    expect(sandbox.tenants.get('acme')?.state.jobs.size).toBe(40);
    expect(sandbox.tenants.get('acme')?.state.options.seed.seed).toBe(tenantSeed('acme'));
    // The default customer is as it was: its own user, its own restUrl.
    const own = await loginAs(sandbox, 'recruiter');
    expect(own.restUrl.startsWith(`${sandbox.url}/rest-services/`)).toBe(true);
    expect(await jobIds(own)).toHaveLength(5);
  });

  it("keeps each tenant's data, sessions and refresh tokens its own", async () => {
    const acme = await loginAs(sandbox, 'recruiter@acme');
    const globex = await loginAs(sandbox, 'recruiter@globex');
    const created = await fetch(`${acme.restUrl}entity/Candidate`, {
      method: 'PUT',
      headers: { BhRestToken: acme.bhRestToken, 'content-type': 'application/json' },
      body: JSON.stringify({
        firstName: 'Ada',
        lastName: 'Lovelace',
        name: 'Ada Lovelace',
        status: 'New Lead',
      }),
    });
    expect(created.status).toBe(200);
    expect(sandbox.tenants.get('acme')?.state.candidates()).toHaveLength(1);
    expect(sandbox.tenants.get('globex')?.state.candidates()).toHaveLength(0);
    expect(sandbox.state.candidates()).toHaveLength(0);

    // acme's session is nothing at globex's restUrl, nor at the default customer's.
    const corp = new URL(acme.restUrl).pathname.split('/').filter(Boolean).pop();
    expect((await call(acme, 'ping', globex.restUrl)).status).toBe(401);
    expect((await call(acme, 'ping', `${sandbox.url}/rest-services/${corp}/`)).status).toBe(401);

    // A refresh at the vendor's token address rotates acme's token; the old one is dead.
    const refresh = (refreshToken: string) =>
      fetch(
        `${sandbox.oauthUrl}/token?${new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, ...CLIENT })}`,
        { method: 'POST' },
      );
    const rotated = await refresh(acme.refreshToken);
    expect(rotated.status).toBe(200);
    expect(((await rotated.json()) as Json)['refresh_token']).toMatch(/^rt-acme\./);
    expect((await refresh(acme.refreshToken)).status).toBe(400);
    expect(sandbox.tenants.get('globex')?.state.auth.counts().refreshTokens).toBe(1);
  });

  it('has an admin surface per tenant: expiring one tenant’s sessions leaves the others alone', async () => {
    const acme = await loginAs(sandbox, 'recruiter@acme');
    const globex = await loginAs(sandbox, 'recruiter@globex');
    const expired = await fetch(`${sandbox.tenantUrl('acme')}/__sandbox/sessions/expire`, { method: 'POST' });
    expect(expired.status).toBeLessThan(300);
    expect((await call(acme, 'ping')).status).toBe(401);
    expect((await call(globex, 'ping')).status).toBe(200);
  });

  it('creates a tenant with its own limit through the default admin surface, and lists tenants', async () => {
    const created = await fetch(`${sandbox.url}/__sandbox/tenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'initech', jobs: 7, perMinuteLimit: 2 }),
    });
    expect(created.status).toBe(201);
    const initech = await loginAs(sandbox, 'recruiter@initech');
    expect((await call(initech, 'ping')).status).toBe(200);
    expect((await call(initech, 'ping')).status).toBe(200);
    expect((await call(initech, 'ping')).status).toBe(429);
    const globex = await loginAs(sandbox, 'recruiter@globex');
    expect((await call(globex, 'ping')).status).toBe(200);
    const list = (await (await fetch(`${sandbox.url}/__sandbox/tenants`)).json()) as { tenants: Json[] };
    expect(list.tenants.map((t) => t['name']).sort()).toEqual(['acme', 'globex', 'initech']);
    expect(list.tenants.find((t) => t['name'] === 'initech')).toMatchObject({ jobs: 7 });
  });

  it('refuses a wrong password, a bad tenant name, and tenants past the limit', async () => {
    const authorize = `${sandbox.oauthUrl}/authorize?client_id=${CLIENT.client_id}&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT)}`;
    await expect(
      driveLoginForm(authorize, { username: 'recruiter@acme', password: 'wrong' }),
    ).rejects.toThrow(/401/);
    const full = await fetch(`${sandbox.tenantUrl('fourth')}/__sandbox`);
    expect(full.status).toBe(503);
    expect(await full.json()).toMatchObject({ errorMessage: expect.stringContaining('at most 3') });
    expect((await fetch(`${sandbox.url}/t/Bad_Name/__sandbox`)).status).toBe(400);
  });
});
