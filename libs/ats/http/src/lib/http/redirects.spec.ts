import { AtsError } from '../ats-error';
import { AtsHttp, type AtsHttpOptions } from './ats-http';
import { isAllowedHost, methodAfter, parseAllowedHosts } from './redirects';

/** An ATS of several data centres: the router answers with a redirect, the data centre with the answer. */
function dataCentres(answers: Record<string, () => Response>) {
  const calls: { url: string; method: string; body?: unknown; headers: Record<string, string> }[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({
      url: String(url),
      method: init?.method ?? 'GET',
      body: init?.body ?? undefined,
      headers: (init?.headers ?? {}) as Record<string, string>,
    });
    const answer = answers[new URL(String(url)).host + new URL(String(url)).pathname];
    return answer ? answer() : new Response('{"errorMessage":"not here"}', { status: 404 });
  };
  return { calls, fetch };
}

const redirect = (status: number, location: string) => () =>
  new Response(null, { status, headers: { location } });

const tokenRequest = {
  endpoint: 'POST /oauth/token (refresh_token)',
  method: 'POST' as const,
  url: 'https://auth.ats.example/oauth/token?refresh_token=rt-secret&client_secret=cs-secret',
  json: { note: 'kept on 307' },
  write: true,
  quickRetry: false,
  secrets: ['rt-secret', 'cs-secret'],
};

const httpWith = (fetch: AtsHttpOptions['fetch'], redirects?: AtsHttpOptions['redirects'], more = {}) =>
  new AtsHttp('ATS-X', { fetch, redirects, quickRetry: false, ...more }, 1000);

describe('AtsHttp redirects', () => {
  it('follows a 307 to an allowed host, POST and body kept, and says where the answer came from', async () => {
    const { calls, fetch } = dataCentres({
      'auth.ats.example/oauth/token': redirect(
        307,
        'https://auth-dc2.ats.example/oauth/token?refresh_token=rt-secret&client_secret=cs-secret',
      ),
      'auth-dc2.ats.example/oauth/token': () => Response.json({ access_token: 'at' }),
    });
    const counted: number[] = [];
    const http = httpWith(
      fetch,
      { allowedHosts: ['.ats.example'] },
      {
        hooks: { afterCall: ({ status }: { status: number }) => counted.push(status) },
      },
    );
    const response = await http.send(tokenRequest);
    expect(response).toMatchObject({ status: 200, body: { access_token: 'at' } });
    expect(response.url).toBe(
      'https://auth-dc2.ats.example/oauth/token?refresh_token=rt-secret&client_secret=cs-secret',
    );
    expect(calls.map(({ method, body }) => ({ method, body }))).toEqual([
      { method: 'POST', body: '{"note":"kept on 307"}' },
      { method: 'POST', body: '{"note":"kept on 307"}' },
    ]);
    // Each hop is a call of its own: budget and counting see both.
    expect(counted).toEqual([307, 200]);
  });

  it('follows a relative Location and several hops, up to the limit', async () => {
    const { calls, fetch } = dataCentres({
      'ats.example/a': redirect(308, '/b'),
      'ats.example/b': redirect(307, 'https://dc2.ats.example/c'),
      'dc2.ats.example/c': () => Response.json({ ok: true }),
    });
    const http = httpWith(fetch, { allowedHosts: ['ats.example'], maxHops: 2 });
    await expect(http.send({ ...tokenRequest, url: 'https://ats.example/a' })).resolves.toMatchObject({
      status: 200,
      url: 'https://dc2.ats.example/c',
    });
    expect(calls.map((c) => c.url)).toEqual([
      'https://ats.example/a',
      'https://ats.example/b',
      'https://dc2.ats.example/c',
    ]);
    const tooFew = httpWith(fetch, { allowedHosts: ['ats.example'], maxHops: 1 });
    await expect(tooFew.send({ ...tokenRequest, url: 'https://ats.example/a' })).rejects.toMatchObject({
      kind: 'permanent',
      code: 'redirect_refused',
      message: expect.stringContaining('more than 1 redirects'),
    });
  });

  it('refuses a redirect to another host, sends it nothing, and names only the host', async () => {
    const { calls, fetch } = dataCentres({
      'auth.ats.example/oauth/token': redirect(
        307,
        'https://evil.example:8443/steal?refresh_token=rt-secret&client_secret=cs-secret',
      ),
    });
    const refusals: unknown[] = [];
    const http = httpWith(fetch, {
      allowedHosts: ['.ats.example'],
      onRefused: (refusal) => refusals.push(refusal),
    });
    const error = await http.send(tokenRequest).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AtsError);
    expect(error).toMatchObject({ kind: 'permanent', code: 'redirect_refused', status: 307 });
    expect((error as AtsError).message).toContain('evil.example:8443');
    expect((error as AtsError).message).not.toMatch(/rt-secret|cs-secret|steal/);
    expect(refusals).toEqual([
      {
        endpoint: 'POST /oauth/token (refresh_token)',
        host: 'evil.example:8443',
        reason: 'not one of its allowed hosts',
      },
    ]);
    expect(JSON.stringify(refusals)).not.toMatch(/rt-secret|cs-secret/);
    expect(calls.map((c) => new URL(c.url).host)).toEqual(['auth.ats.example']);
  });

  it('checks every hop with the outbound guard, as any address', async () => {
    const { calls, fetch } = dataCentres({
      'ats.example/a': redirect(307, 'https://169.254.169.254/latest/meta-data'),
    });
    // Allowed by the list (a misconfiguration), still refused by the guard: a link-local address.
    const http = httpWith(fetch, { allowedHosts: ['ats.example', '169.254.169.254'] });
    await expect(http.send({ ...tokenRequest, url: 'https://ats.example/a' })).rejects.toMatchObject({
      kind: 'permanent',
      code: 'blocked_address',
    });
    expect(calls).toHaveLength(1);
  });

  it('turns POST into GET after a 303 or a 301/302, dropping the body', async () => {
    for (const status of [301, 302, 303]) {
      const { calls, fetch } = dataCentres({
        'ats.example/a': redirect(status, 'https://ats.example/b'),
        'ats.example/b': () => Response.json({}),
      });
      await httpWith(fetch, { allowedHosts: ['ats.example'] }).send({
        ...tokenRequest,
        url: 'https://ats.example/a',
      });
      expect(calls[1]).toMatchObject({ method: 'GET', body: undefined });
    }
  });

  it('keeps the credentials headers on the same origin only', async () => {
    const { calls, fetch } = dataCentres({
      'ats.example/a': redirect(307, '/b'),
      'ats.example/b': redirect(307, 'https://dc2.ats.example/c'),
      'dc2.ats.example/c': () => Response.json({}),
    });
    await httpWith(fetch, { allowedHosts: ['ats.example'] }).send({
      ...tokenRequest,
      url: 'https://ats.example/a',
      headers: { Authorization: 'Bearer x', 'X-Kept': '1' },
    });
    expect(calls.map((c) => c.headers['Authorization'])).toEqual(['Bearer x', 'Bearer x', undefined]);
    expect(calls.map((c) => c.headers['X-Kept'])).toEqual(['1', '1', '1']);
  });

  it('without a policy hands the redirect back (the caller makes it a permanent error)', async () => {
    const { calls, fetch } = dataCentres({ 'ats.example/a': redirect(307, 'https://dc2.ats.example/a') });
    const http = httpWith(fetch);
    const response = await http.send({ ...tokenRequest, url: 'https://ats.example/a' });
    expect(response.status).toBe(307);
    expect(http.failure(tokenRequest, response)).toMatchObject({ code: 'redirect' });
    expect(calls).toHaveLength(1);
  });
});

describe(isAllowedHost.name, () => {
  it('matches a host and the hosts under a suffix, nothing that merely ends alike', () => {
    const allowed = parseAllowedHosts(' .bullhornstaffing.com, 127.0.0.1 ,,');
    expect(allowed).toEqual(['.bullhornstaffing.com', '127.0.0.1']);
    for (const host of [
      'bullhornstaffing.com',
      'auth-emea9.bullhornstaffing.com',
      'REST.BullhornStaffing.com.',
      '127.0.0.1',
    ]) {
      expect([host, isAllowedHost(host, allowed)]).toEqual([host, true]);
    }
    for (const host of [
      'evilbullhornstaffing.com',
      'bullhornstaffing.com.evil.example',
      'localhost',
      '127.0.0.2',
      '',
    ]) {
      expect([host, isAllowedHost(host, allowed)]).toEqual([host, false]);
    }
    expect(isAllowedHost('anything.example', [])).toBe(false);
  });
});

describe(methodAfter.name, () => {
  it('keeps the method for 307 and 308, GET after a 303, a POST becomes GET after 301/302', () => {
    expect(methodAfter(307, 'POST')).toEqual({ method: 'POST', keepBody: true });
    expect(methodAfter(308, 'PUT')).toEqual({ method: 'PUT', keepBody: true });
    expect(methodAfter(303, 'PUT')).toEqual({ method: 'GET', keepBody: false });
    expect(methodAfter(302, 'POST')).toEqual({ method: 'GET', keepBody: false });
    expect(methodAfter(301, 'PUT')).toEqual({ method: 'PUT', keepBody: true });
    expect(methodAfter(303, 'GET')).toEqual({ method: 'GET', keepBody: true });
  });
});
