import { tenantSeed } from '../tenancy/tenant-name';
import { startAtsASandbox, type RunningAtsASandbox } from './ats-a-sandbox.server';

type Json = Record<string, unknown>;

async function post(url: string, body: unknown, token?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

async function tokenAt(
  base: string,
  clientId = 'demo-client',
  clientSecret = 'demo-secret',
): Promise<string> {
  const res = await post(`${base}/api/token`, {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

const firstVacancies = async (base: string, token: string): Promise<Json[]> => {
  const res = await post(
    `${base}/api/vacancies/search`,
    { Paging: { RecordsPerPage: 5, RequestedPage: 1 }, ResponseBlocks: ['Title'] },
    token,
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { Records: Json[] }).Records;
};

describe('ATS-A sandbox tenants: many customer systems in one process', () => {
  let sandbox: RunningAtsASandbox;

  beforeAll(async () => {
    sandbox = await startAtsASandbox({ seed: { vacancies: 50 }, dailyLimit: 1000, tenants: { max: 4 } });
  });
  afterAll(() => sandbox.close());

  it('serves a tenant under /t/<name> on first use, with data of its own seed', async () => {
    const acme = sandbox.tenantUrl('acme');
    const globex = sandbox.tenantUrl('globex');
    const [acmeToken, globexToken, defaultToken] = await Promise.all([
      tokenAt(acme),
      tokenAt(globex),
      tokenAt(sandbox.url),
    ]);
    const titles = await Promise.all([
      firstVacancies(acme, acmeToken),
      firstVacancies(globex, globexToken),
      firstVacancies(sandbox.url, defaultToken),
    ]);
    expect(titles[0]).toHaveLength(5);
    // A seed per tenant: the three systems do not hold the same vacancies.
    expect(titles[0]).not.toEqual(titles[1]);
    expect(titles[0]).not.toEqual(titles[2]);
    // Same name, same seed: the data is the same on every start.
    expect(sandbox.tenants.get('acme')?.state.seedInfo().seed).toBe(tenantSeed('acme'));
    expect(sandbox.tenants.names().sort()).toEqual(['acme', 'globex']);
  });

  it("refuses one tenant's token at another tenant and at the default one", async () => {
    const acmeToken = await tokenAt(sandbox.tenantUrl('acme'));
    for (const base of [sandbox.tenantUrl('globex'), sandbox.url]) {
      const res = await post(`${base}/api/vacancies/search`, {}, acmeToken);
      expect(res.status).toBe(401);
    }
    expect((await post(`${sandbox.tenantUrl('acme')}/api/vacancies/search`, {}, acmeToken)).status).toBe(200);
  });

  it("counts each tenant's calls against its own daily limit", async () => {
    const acme = sandbox.tenants.get('acme')!.state;
    const globex = sandbox.tenants.get('globex')!.state;
    const globexBefore = globex.quota().used;
    const defaultBefore = sandbox.state.quota().used;
    acme.setQuota({ limit: 3, used: 3 });
    const spent = await post(`${sandbox.tenantUrl('acme')}/api/token`, {
      grant_type: 'client_credentials',
      client_id: 'demo-client',
      client_secret: 'demo-secret',
    });
    expect(spent.status).toBe(429);
    await tokenAt(sandbox.tenantUrl('globex'));
    expect(globex.quota().used).toBe(globexBefore + 1);
    expect(sandbox.state.quota().used).toBe(defaultBefore);
  });

  it("has an admin surface per tenant: one tenant's faults and data changes stay its own", async () => {
    const admin = `${sandbox.tenantUrl('globex')}/__sandbox`;
    const faults = await fetch(`${admin}/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ force429: true }),
    });
    expect(faults.status).toBe(200);
    const globexCall = await post(`${sandbox.tenantUrl('globex')}/api/vacancies/search`, {});
    expect(globexCall.status).toBe(429);
    expect(sandbox.state.faultConfig().force429).toBe(false);
    expect(sandbox.tenants.get('acme')!.state.faultConfig().force429).toBe(false);

    const summary = (await (await fetch(`${admin}`)).json()) as Json;
    expect(summary).toMatchObject({ vacancies: 50 });
    expect(sandbox.tenants.get('globex')!.state.callCounts().total).toBeGreaterThan(0);
  });

  it('creates a tenant with options of its own through the default admin surface, and lists tenants', async () => {
    const created = await post(`${sandbox.url}/__sandbox/tenants`, {
      name: 'initech',
      vacancies: 7,
      dailyLimit: 2,
      clients: [{ clientId: 'initech-id', clientSecret: 'initech-secret' }],
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ name: 'initech', seed: { vacancies: 7 } });
    const base = sandbox.tenantUrl('initech');
    const refused = await post(`${base}/api/token`, {
      grant_type: 'client_credentials',
      client_id: 'demo-client',
      client_secret: 'demo-secret',
    });
    expect(refused.status).toBe(401);
    await tokenAt(base, 'initech-id', 'initech-secret');
    expect(sandbox.tenants.get('initech')!.state.quota()).toMatchObject({ limit: 2, used: 2 });

    const again = await post(`${sandbox.url}/__sandbox/tenants`, { name: 'initech' });
    expect(again.status).toBe(409);
    const list = (await (await fetch(`${sandbox.url}/__sandbox/tenants`)).json()) as { tenants: Json[] };
    expect(list.tenants.map((t) => t['name']).sort()).toEqual(['acme', 'globex', 'initech']);
  });

  it('refuses a bad tenant name, unknown tenant fields, and tenants past the limit', async () => {
    expect((await post(`${sandbox.url}/t/Not_A_Name/api/token`, {})).status).toBe(400);
    const unknown = await post(`${sandbox.url}/__sandbox/tenants`, { name: 'x1', latency: 5 });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error_message: expect.stringContaining('latency') });
    expect((await post(`${sandbox.url}/t/fourth/api/token`, {})).status).not.toBe(503);
    const fifth = await post(`${sandbox.url}/t/fifth/api/token`, {});
    expect(fifth.status).toBe(503);
    expect(await fifth.json()).toMatchObject({ error_message: expect.stringContaining('at most 4') });
  });
});

describe('ATS-A sandbox tenants: latency', () => {
  it('answers a tenant after its configured latency plus jitter', async () => {
    const sandbox = await startAtsASandbox({ tenants: { defaults: { latencyMs: 120, jitterMs: 30 } } });
    try {
      const started = performance.now();
      await tokenAt(sandbox.tenantUrl('slow'));
      expect(performance.now() - started).toBeGreaterThanOrEqual(115);
      expect(sandbox.tenants.get('slow')!.state.faultConfig()).toMatchObject({
        latencyMs: 120,
        jitterMs: 30,
      });
      expect(sandbox.state.faultConfig()).toMatchObject({ latencyMs: 0, jitterMs: 0 });
    } finally {
      await sandbox.close();
    }
  });
});
