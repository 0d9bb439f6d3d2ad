import { startAtsBSandbox, type RunningAtsBSandbox } from '../ats-b-sandbox.server';
import type { AtsBDataCentre, DataCentreCall } from './data-centres';

const REDIRECT = 'http://127.0.0.1:9999/oauth/ats-b/callback';
const CLIENT = { client_id: 'platform-client', client_secret: 'platform-secret' };
const INVALID_REST_TOKEN = {
  errorMessage: "Bad 'BhRestToken' or timed-out.",
  errorMessageKey: 'errors.authentication.invalidRestToken',
  errorCode: 401,
};

type Json = Record<string, unknown>;

const post = (url: string, body?: URLSearchParams) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    ...(body
      ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() }
      : {}),
  });

const tokenQuery = (params: Record<string, string>) =>
  new URLSearchParams({ ...CLIENT, ...params }).toString();

/** Where a 307 points, checked to be the same path and query at `dc`. */
function expectRedirect(res: Response, dc: AtsBDataCentre, pathAndQuery: string): string {
  expect(res.status).toBe(307);
  const location = res.headers.get('location') ?? '';
  expect(location).toBe(`${dc.url}${pathAndQuery}`);
  return location;
}

describe('ATS-B sandbox with several data centres', () => {
  let sb: RunningAtsBSandbox;
  let us: AtsBDataCentre;
  let emea: AtsBDataCentre;

  beforeAll(async () => {
    sb = await startAtsBSandbox({
      seed: { jobs: 30 },
      dataCentres: [{ name: 'us' }, { name: 'emea' }],
      users: [
        { username: 'recruiter', password: 'recruiter-pass', dataCentre: 'us' },
        { username: 'emea-user', password: 'emea-pass', dataCentre: 'emea' },
      ],
    });
    us = sb.dataCentre('us');
    emea = sb.dataCentre('emea');
  });
  afterAll(() => sb.close());

  /** A code for `username`, by the login form at the data centre (no router). */
  async function codeAt(dc: AtsBDataCentre, username: string, password: string): Promise<string> {
    const q = new URLSearchParams({
      ...{ client_id: CLIENT.client_id },
      response_type: 'code',
      redirect_uri: REDIRECT,
    });
    const res = await post(`${dc.oauthUrl}/authorize?${q}`, new URLSearchParams({ username, password }));
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location') ?? '').searchParams.get('code') ?? '';
  }

  async function tokensAt(dc: AtsBDataCentre, username: string, password: string): Promise<Json> {
    const code = await codeAt(dc, username, password);
    const res = await post(
      `${dc.oauthUrl}/token?${tokenQuery({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })}`,
    );
    expect(res.status).toBe(200);
    return (await res.json()) as Json;
  }

  it('runs each data centre and the router on its own origin', () => {
    const origins = [sb.url, us.url, emea.url];
    expect(new Set(origins).size).toBe(3);
    for (const origin of origins) expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sb.dataCentres.map((dc) => dc.name)).toEqual(['us', 'emea']);
    expect(() => sb.dataCentre('apac')).toThrow(/no data centre 'apac'/);
  });

  it("answers loginInfo with the user's data centre, at the router and at any data centre", async () => {
    for (const origin of [sb.url, us.url]) {
      const emeaInfo = (await (
        await fetch(`${origin}/rest-services/loginInfo?username=emea-user`)
      ).json()) as Json;
      expect(emeaInfo).toMatchObject({
        oauthUrl: emea.oauthUrl,
        restUrl: emea.restLoginUrl,
        dataCenterId: 2,
      });
      const usInfo = (await (
        await fetch(`${origin}/rest-services/loginInfo?username=recruiter`)
      ).json()) as Json;
      expect(usInfo).toMatchObject({ oauthUrl: us.oauthUrl, restUrl: us.restLoginUrl, dataCenterId: 1 });
    }
    const unknown = await fetch(`${sb.url}/rest-services/loginInfo?username=nobody`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ errorMessageKey: 'errors.userNotFound', errorCode: 404 });
  });

  it("logs a data centre's user in through the router by following each 307 by hand", async () => {
    await post(`${sb.url}/__sandbox/calls/reset`);
    const q = new URLSearchParams({
      client_id: CLIENT.client_id,
      response_type: 'code',
      redirect_uri: REDIRECT,
      state: 's-1',
    });
    // The router shows the login page; the form posts back to the router.
    const page = await fetch(`${sb.oauthUrl}/authorize?${q}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('action="/oauth/authorize"');
    const form = new URLSearchParams({
      client_id: CLIENT.client_id,
      response_type: 'code',
      redirect_uri: REDIRECT,
      state: 's-1',
      username: 'emea-user',
      password: 'emea-pass',
      action: 'Login',
    });
    const atRouter = await post(`${sb.oauthUrl}/authorize`, form);
    const authorizeAtEmea = expectRedirect(atRouter, emea, '/oauth/authorize');
    // A browser posts the form again at the 307's Location (same method and body); emea issues the code.
    const issued = await post(authorizeAtEmea, form);
    expect(issued.status).toBe(302);
    const callback = new URL(issued.headers.get('location') ?? '');
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
    expect(callback.searchParams.get('state')).toBe('s-1');
    const code = callback.searchParams.get('code') ?? '';

    const exchange = `/oauth/token?${tokenQuery({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })}`;
    const tokenAtEmea = expectRedirect(await post(`${sb.url}${exchange}`), emea, exchange);
    const tokensRes = await post(tokenAtEmea);
    expect(tokensRes.status).toBe(200);
    const tokens = (await tokensRes.json()) as Json;

    const login = `/rest-services/login?version=*&access_token=${encodeURIComponent(String(tokens['access_token']))}`;
    const loginAtEmea = expectRedirect(await post(`${sb.url}${login}`), emea, login);
    const session = (await (await post(loginAtEmea)).json()) as { BhRestToken: string; restUrl: string };
    expect(session.restUrl.startsWith(`${emea.url}/rest-services/`)).toBe(true);
    const ping = await fetch(`${session.restUrl}ping`, { headers: { BhRestToken: session.BhRestToken } });
    expect(ping.status).toBe(200);

    const refresh = `/oauth/token?${tokenQuery({ grant_type: 'refresh_token', refresh_token: String(tokens['refresh_token']) })}`;
    const refreshAtEmea = expectRedirect(await post(`${sb.url}${refresh}`), emea, refresh);
    const rotated = await post(refreshAtEmea);
    expect(rotated.status).toBe(200);
    expect(((await rotated.json()) as Json)['refresh_token']).not.toBe(tokens['refresh_token']);

    // The call log says who answered what: the router redirected, emea served; us saw nothing.
    const { log } = (await (await fetch(`${sb.url}/__sandbox/calls`)).json()) as { log: DataCentreCall[] };
    const seen = log.map((c) => `${c.dataCentre} ${c.method} ${c.path} ${c.status}`);
    expect(seen).toEqual([
      'router GET /oauth/authorize 200',
      'router POST /oauth/authorize 307',
      'emea POST /oauth/authorize 302',
      'router POST /oauth/token 307',
      'emea POST /oauth/token 200',
      'router POST /rest-services/login 307',
      'emea POST /rest-services/login 200',
      `emea GET ${new URL(session.restUrl).pathname}ping 200`,
      'router POST /oauth/token 307',
      'emea POST /oauth/token 200',
    ]);
    expect(emea.state.callCounts()).toMatchObject({ 'POST /oauth/token refresh_token': 1 });
  });

  it("sends a non-interactive authorize (username in the query) on to the user's data centre", async () => {
    const q = new URLSearchParams({
      client_id: CLIENT.client_id,
      response_type: 'code',
      redirect_uri: REDIRECT,
      action: 'Login',
      username: 'recruiter',
      password: 'recruiter-pass',
    });
    const location = expectRedirect(
      await fetch(`${sb.oauthUrl}/authorize?${q}`, { redirect: 'manual' }),
      us,
      `/oauth/authorize?${q}`,
    );
    const issued = await fetch(location, { redirect: 'manual' });
    expect(issued.status).toBe(302);
    expect(new URL(issued.headers.get('location') ?? '').searchParams.get('code')).toBeTruthy();
  });

  it('refuses at one data centre what another issued, as an unknown one, and leaves it good where it belongs', async () => {
    const code = await codeAt(emea, 'emea-user', 'emea-pass');
    const exchange = `/oauth/token?${tokenQuery({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })}`;
    const atUs = await post(`${us.url}${exchange}`);
    expect(atUs.status).toBe(400);
    expect(await atUs.json()).toMatchObject({ error: 'invalid_grant' });
    const tokensRes = await post(`${emea.url}${exchange}`);
    expect(tokensRes.status).toBe(200);
    const tokens = (await tokensRes.json()) as Json;

    const refresh = `/oauth/token?${tokenQuery({ grant_type: 'refresh_token', refresh_token: String(tokens['refresh_token']) })}`;
    const refreshAtUs = await post(`${us.url}${refresh}`);
    expect(refreshAtUs.status).toBe(400);
    expect(await refreshAtUs.json()).toMatchObject({ error: 'invalid_grant' });

    const login = `/rest-services/login?version=*&access_token=${encodeURIComponent(String(tokens['access_token']))}`;
    const loginAtUs = await post(`${us.url}${login}`);
    expect(loginAtUs.status).toBe(401);
    expect(await loginAtUs.json()).toMatchObject({
      errorMessageKey: 'errors.authentication.invalidOAuthToken',
    });

    const session = (await (await post(`${emea.url}${login}`)).json()) as {
      BhRestToken: string;
      restUrl: string;
    };
    const restPath = new URL(session.restUrl).pathname;
    const pingAtUs = await fetch(`${us.url}${restPath}ping`, {
      headers: { BhRestToken: session.BhRestToken },
    });
    expect(pingAtUs.status).toBe(401);
    expect(await pingAtUs.json()).toEqual(INVALID_REST_TOKEN);

    // Each stayed good at emea: the refresh token was not spent by us, the session still answers.
    expect(
      (await fetch(`${session.restUrl}ping`, { headers: { BhRestToken: session.BhRestToken } })).status,
    ).toBe(200);
    expect((await post(`${emea.url}${refresh}`)).status).toBe(200);
  });

  it('sends a data call with a session it can attribute to that data centre, and refuses what it cannot', async () => {
    const tokens = await tokensAt(emea, 'emea-user', 'emea-pass');
    const session = (await (
      await post(
        `${emea.restLoginUrl}/login?version=*&access_token=${encodeURIComponent(String(tokens['access_token']))}`,
      )
    ).json()) as { BhRestToken: string; restUrl: string };
    const path = `${new URL(session.restUrl).pathname}search/JobOrder?query=isOpen:1&fields=id&count=2`;
    const atRouter = await fetch(`${sb.url}${path}`, {
      headers: { BhRestToken: session.BhRestToken },
      redirect: 'manual',
    });
    expectRedirect(atRouter, emea, path);

    // Nothing the router cannot attribute is redirected: it is refused as unknown, at the router.
    const unknownSession = await fetch(`${sb.url}${path}`, {
      headers: { BhRestToken: 'nope' },
      redirect: 'manual',
    });
    expect(unknownSession.status).toBe(401);
    expect(await unknownSession.json()).toEqual(INVALID_REST_TOKEN);
    const unknownCode = await post(
      `${sb.url}/oauth/token?${tokenQuery({ grant_type: 'authorization_code', code: 'code-nope', redirect_uri: REDIRECT })}`,
    );
    expect(unknownCode.status).toBe(400);
    expect(await unknownCode.json()).toMatchObject({ error: 'invalid_grant' });
    const unknownRefresh = await post(
      `${sb.url}/oauth/token?${tokenQuery({ grant_type: 'refresh_token', refresh_token: 'rt-nope' })}`,
    );
    expect(unknownRefresh.status).toBe(400);
    const unknownAccess = await post(`${sb.url}/rest-services/login?version=*&access_token=at-nope`);
    expect(unknownAccess.status).toBe(401);
    const unknownUser = await post(
      `${sb.oauthUrl}/authorize`,
      new URLSearchParams({
        client_id: CLIENT.client_id,
        redirect_uri: REDIRECT,
        username: 'nobody',
        password: 'x',
      }),
    );
    expect(unknownUser.status).toBe(401);
    expect(await unknownUser.text()).toContain('Invalid username or password.');
  });

  it('closes every listener', async () => {
    const other = await startAtsBSandbox({ dataCentres: [{ name: 'a' }, { name: 'b' }] });
    const origins = [other.url, ...other.dataCentres.map((dc) => dc.url)];
    for (const origin of origins) expect((await fetch(`${origin}/__sandbox/calls`)).status).toBe(200);
    await other.close();
    for (const origin of origins) await expect(fetch(`${origin}/__sandbox/calls`)).rejects.toThrow();
  });
});
