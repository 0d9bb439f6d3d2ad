import { driveLoginForm } from '../test/login-form.driver';
import { startAtsBSandbox, type RunningAtsBSandbox } from '../index';

const REDIRECT = 'http://127.0.0.1:9999/oauth/ats-b/callback';
const CLIENT = { client_id: 'platform-client', client_secret: 'platform-secret' };
const SUBSCRIBE = 'type=entity&names=JobOrder&eventTypes=INSERTED,UPDATED,DELETED';

/** Logs in as the vendor documents (form → code → token → REST login) and returns a data-call helper. */
async function connect(sb: RunningAtsBSandbox, username = 'recruiter') {
  const authorize = `${sb.oauthUrl}/authorize?${new URLSearchParams({
    client_id: CLIENT.client_id,
    response_type: 'code',
    redirect_uri: REDIRECT,
    state: 's',
  })}`;
  const code = new URL(
    await driveLoginForm(authorize, { username, password: 'recruiter-pass' }),
  ).searchParams.get('code')!;
  const tokenRes = await fetch(
    `${sb.oauthUrl}/token?${new URLSearchParams({ ...CLIENT, grant_type: 'authorization_code', code, redirect_uri: REDIRECT })}`,
    { method: 'POST' },
  );
  const { access_token } = (await tokenRes.json()) as { access_token: string };
  const login = (await (
    await fetch(`${sb.restLoginUrl}/login?version=*&access_token=${access_token}`, { method: 'POST' })
  ).json()) as { BhRestToken: string; restUrl: string };
  return async (method: string, path: string): Promise<{ status: number; body: Record<string, unknown> }> => {
    const res = await fetch(login.restUrl + path, { method, headers: { BhRestToken: login.BhRestToken } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
}

async function admin(url: string, method: string, path: string, json?: unknown): Promise<Response> {
  return fetch(`${url}/__sandbox${path}`, {
    method,
    headers: json === undefined ? {} : { 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
}

interface Batch {
  requestId?: number;
  events?: { entityId: number; entityEventType: string; updatedProperties?: string[]; eventId: string }[];
}

describe('ATS-B sandbox event subscriptions over HTTP', () => {
  let sb: RunningAtsBSandbox;

  beforeAll(async () => {
    sb = await startAtsBSandbox({ port: 0, seed: { jobs: 100, seed: 3 } });
  });
  afterAll(async () => {
    await sb.close();
  });
  beforeEach(() => {
    sb.state.reset();
  });

  it('subscribes, sees every job change made over /__sandbox, reads (removing) and re-reads a batch', async () => {
    const call = await connect(sb);
    const put = await call('PUT', `event/subscription/jobs?${SUBSCRIBE}`);
    expect(put).toEqual({
      status: 200,
      body: {
        lastRequestId: 0,
        subscriptionId: 'jobs',
        createdOn: expect.any(Number),
        jmsSelector: expect.stringContaining("BhEntityName IN ('JobOrder')"),
      },
    });
    expect(await call('GET', 'event/subscription/jobs?maxEvents=100')).toEqual({ status: 200, body: {} });

    const created = (await (await admin(sb.url, 'POST', '/jobs', { title: 'Welder' })).json()) as {
      id: number;
    };
    await admin(sb.url, 'PATCH', '/jobs/2', { title: 'Retitled', isPublic: 0 });
    await admin(sb.url, 'POST', '/jobs/3/close');
    await admin(sb.url, 'POST', '/jobs/4/delete');
    expect((await admin(sb.url, 'DELETE', '/jobs/5')).status).toBe(200);

    const read = await call('GET', 'event/subscription/jobs?maxEvents=100');
    const batch = read.body as Batch;
    expect(batch.requestId).toBe(1);
    const kinds = Object.fromEntries(batch.events!.map((e) => [e.entityId, e.entityEventType]));
    expect(kinds).toEqual({
      [created.id]: 'INSERTED',
      2: 'UPDATED',
      3: 'UPDATED',
      4: 'UPDATED',
      5: 'DELETED',
    });
    expect(batch.events!.find((e) => e.entityId === 2)?.updatedProperties).toEqual(['isPublic', 'title']);
    expect(batch.events!.find((e) => e.entityId === 4)?.updatedProperties).toEqual(['isDeleted']);
    expect((await call('GET', 'entity/JobOrder/5?fields=id')).status).toBe(404);

    expect(await call('GET', 'event/subscription/jobs?maxEvents=100')).toEqual({ status: 200, body: {} });
    expect(await call('GET', 'event/subscription/jobs?requestId=1')).toEqual({ status: 200, body: batch });
    expect(await call('GET', 'event/subscription/jobs/lastRequestId')).toEqual({
      status: 200,
      body: { result: 1 },
    });
    expect(sb.state.callCounts()).toMatchObject({
      'PUT event/subscription': 1,
      'GET event/subscription': 4,
      'GET event/subscription/lastRequestId': 1,
    });
  });

  it('answers an unknown, dropped or expired subscription with 404, and DELETE with result', async () => {
    const call = await connect(sb);
    expect(await call('GET', 'event/subscription/nope?maxEvents=10')).toEqual({
      status: 404,
      body: {
        errorMessage: "Subscription 'nope' not found",
        errorMessageKey: 'errors.subscriptionNotFound',
        errorCode: 404,
      },
    });
    await call('PUT', `event/subscription/a?${SUBSCRIBE}`);
    expect((await admin(sb.url, 'DELETE', '/event-subscriptions/a')).status).toBe(200);
    expect((await call('GET', 'event/subscription/a?maxEvents=10')).status).toBe(404);

    await call('PUT', `event/subscription/b?${SUBSCRIBE}`);
    expect(await call('DELETE', 'event/subscription/b')).toEqual({ status: 200, body: { result: true } });
    expect(await call('DELETE', 'event/subscription/b')).toEqual({ status: 200, body: { result: false } });

    await call('PUT', `event/subscription/c?${SUBSCRIBE}`);
    expect((await admin(sb.url, 'PUT', '/event-subscriptions', { ttlMs: 1 })).status).toBe(200);
    const started = Date.now();
    while (Date.now() - started < 2) await new Promise((r) => setImmediate(r));
    expect((await call('GET', 'event/subscription/c?maxEvents=10')).status).toBe(404);
  });

  it('validates parameters, caps subscriptions and counts the calls against the per-minute limit', async () => {
    const call = await connect(sb);
    expect((await call('PUT', 'event/subscription/x?type=entity&names=JobOrder')).status).toBe(400);
    expect(
      (await call('PUT', 'event/subscription/x?type=entity&names=Candidate&eventTypes=UPDATED')).status,
    ).toBe(400);
    await call('PUT', `event/subscription/x?${SUBSCRIBE}`);
    expect((await call('GET', 'event/subscription/x')).body).toMatchObject({ errorCode: 400 });
    expect((await call('GET', 'event/subscription/x?maxEvents=0')).status).toBe(400);

    await admin(sb.url, 'PUT', '/event-subscriptions', { max: 2 });
    expect((await call('PUT', `event/subscription/y?${SUBSCRIBE}`)).status).toBe(200);
    expect(await call('PUT', `event/subscription/z?${SUBSCRIBE}`)).toEqual({
      status: 400,
      body: expect.objectContaining({ errorMessageKey: 'errors.subscriptionLimitExceeded' }),
    });

    await admin(sb.url, 'PUT', '/faults', { force429: 1 });
    expect((await call('GET', 'event/subscription/x?maxEvents=10')).status).toBe(429);
  });

  it('keeps each tenant its own subscriptions', async () => {
    const acme = await connect(sb, sb.tenantUser('recruiter', 'acme'));
    const home = await connect(sb);
    await acme('PUT', `event/subscription/jobs?${SUBSCRIBE}`);
    expect((await home('GET', 'event/subscription/jobs?maxEvents=10')).status).toBe(404);
    await admin(sb.tenantUrl('acme'), 'PATCH', '/jobs/1', { title: 'acme change' });
    const batch = (await acme('GET', 'event/subscription/jobs?maxEvents=10')).body as Batch;
    expect(batch.events?.map((e) => [e.entityId, e.entityEventType])).toEqual([[1, 'UPDATED']]);
  });
});
