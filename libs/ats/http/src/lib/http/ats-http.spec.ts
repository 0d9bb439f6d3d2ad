import * as publicApi from '../../index';
import { AtsError } from '../ats-error';
import { UrlPolicyError } from '../url-policy';
import { AtsHttp } from './ats-http';
import { outboundGuard } from './outbound-guard';

const request = {
  endpoint: 'POST /api/candidates',
  method: 'POST' as const,
  url: 'https://ats.example/api/candidates',
  json: { FirstName: 'A' },
  write: true,
  secrets: ['secret-token'],
};

describe(AtsHttp.name, () => {
  it('sends JSON with Accept, hands every answer to afterCall, and ignores an afterCall that throws', async () => {
    const seen: RequestInit[] = [];
    const http = new AtsHttp(
      'ATS-X',
      {
        fetch: async (_url, init) => {
          seen.push(init ?? {});
          return new Response('{"CandidateId":1}', { status: 201 });
        },
        hooks: {
          afterCall: () => {
            throw new Error('metrics are down');
          },
        },
      },
      1000,
    );
    await expect(http.send(request)).resolves.toMatchObject({ status: 201, body: { CandidateId: 1 } });
    expect(seen[0]).toMatchObject({
      method: 'POST',
      body: '{"FirstName":"A"}',
      redirect: 'manual',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    });
  });

  it('sends a form as application/x-www-form-urlencoded (an OAuth token request)', async () => {
    const seen: RequestInit[] = [];
    const http = new AtsHttp(
      'ATS-X',
      {
        fetch: async (_url, init) => {
          seen.push(init ?? {});
          return new Response('{"access_token":"t"}', { status: 200 });
        },
      },
      1000,
    );
    const form = { grant_type: 'client_credentials', client_id: 'a b', client_secret: 's&t' };
    await http.send({ ...request, json: undefined, form, write: false });
    expect(seen[0]).toMatchObject({
      body: 'grant_type=client_credentials&client_id=a+b&client_secret=s%26t',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
  });

  it('lets a beforeCall refusal (rate limiter) through unchanged, before any request', async () => {
    let fetched = 0;
    const refusal = new Error('no token in the bucket');
    const http = new AtsHttp(
      'ATS-X',
      {
        fetch: async () => {
          fetched++;
          return new Response('{}');
        },
        hooks: { beforeCall: async () => Promise.reject(refusal) },
      },
      1000,
    );
    await expect(http.send(request)).rejects.toBe(refusal);
    expect(fetched).toBe(0);
  });

  it("sends nothing once the caller's signal aborted while beforeCall waited for budget", async () => {
    let fetched = 0;
    const lock = new AbortController();
    const lost = new Error('lease on c1:cand1 lost');
    const http = new AtsHttp(
      'ATS-X',
      {
        fetch: async () => {
          fetched++;
          return new Response('{"CandidateId":1}', { status: 201 });
        },
        // The wait for budget, during which the candidate's lock is lost.
        hooks: { beforeCall: async () => lock.abort(lost) },
      },
      1000,
    );
    await expect(http.send({ ...request, signal: lock.signal })).rejects.toBe(lost);
    expect(fetched).toBe(0);
    await expect(http.send(request)).resolves.toMatchObject({ status: 201 });
    expect(fetched).toBe(1);
  });

  it('turns a redirect into a permanent error naming where it points, without its query', async () => {
    const http = new AtsHttp('ATS-X', {}, 1000);
    const error = http.failure(request, {
      url: request.url,
      status: 301,
      headers: new Headers({ location: 'https://other.example/api/candidates?token=secret-token' }),
      body: undefined,
    });
    expect(error).toBeInstanceOf(AtsError);
    expect(error).toMatchObject({ kind: 'permanent', code: 'redirect', status: 301 });
    expect(error.message).toContain('https://other.example/api/candidates');
    expect(error.message).not.toContain('secret-token');
  });

  it('classifies a refused connection as unreachable and not ambiguous, even for a write', async () => {
    const http = new AtsHttp(
      'ATS-X',
      {
        fetch: async () => {
          throw new TypeError('fetch failed', {
            cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
          });
        },
        quickRetry: false,
      },
      1000,
    );
    await expect(http.send(request)).rejects.toMatchObject({ kind: 'unreachable', ambiguous: false });
  });
});

describe(`${AtsHttp.name} quick retries`, () => {
  const quick = { retries: 3, withinMs: 2_000, baseDelayMs: 20 };
  /** A fetch answering the given statuses in turn ('reset' / 'refused': no answer), then 201. */
  const scripted = (script: (number | 'reset' | 'refused')[], headers: Record<string, string> = {}) => {
    const calls: number[] = [];
    const fetch = async () => {
      calls.push(Date.now());
      const next = script.shift() ?? 201;
      if (next === 'reset' || next === 'refused') {
        const code = next === 'reset' ? 'ECONNRESET' : 'ECONNREFUSED';
        throw new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
      }
      return new Response(next === 201 ? '{"CandidateId":7}' : '{}', { status: next, headers });
    };
    return { calls, fetch };
  };

  it('tries a create that met three 500s again within the window and returns its answer', async () => {
    const { calls, fetch } = scripted([500, 502, 503]);
    const after: number[] = [];
    const http = new AtsHttp(
      'ATS-X',
      { fetch, quickRetry: quick, hooks: { afterCall: ({ status }) => after.push(status) } },
      1000,
    );
    await expect(http.send(request)).resolves.toMatchObject({ status: 201, body: { CandidateId: 7 } });
    expect(calls).toHaveLength(4);
    expect(after).toEqual([500, 502, 503, 201]);
  });

  it('gives the last 5xx back once its retries are used up', async () => {
    const { calls, fetch } = scripted([500, 500, 500, 500, 500]);
    const http = new AtsHttp('ATS-X', { fetch, quickRetry: quick }, 1000);
    await expect(http.send(request)).resolves.toMatchObject({ status: 500 });
    expect(calls).toHaveLength(4);
  });

  it('honours Retry-After, and stops when it points past the window', async () => {
    const soon = scripted([503], { 'Retry-After': '0.2' });
    const http = new AtsHttp('ATS-X', { fetch: soon.fetch, quickRetry: quick }, 1000);
    await expect(http.send(request)).resolves.toMatchObject({ status: 201 });
    expect(soon.calls[1]! - soon.calls[0]!).toBeGreaterThanOrEqual(190);

    const late = scripted([503], { 'Retry-After': '30' });
    const lateHttp = new AtsHttp('ATS-X', { fetch: late.fetch, quickRetry: quick }, 1000);
    await expect(lateHttp.send(request)).resolves.toMatchObject({ status: 503 });
    expect(late.calls).toHaveLength(1);
  });

  it('retries a connection refused before sending, never a write cut off after sending, nor a 429', async () => {
    const refused = scripted(['refused']);
    const http = new AtsHttp('ATS-X', { fetch: refused.fetch, quickRetry: quick }, 1000);
    await expect(http.send(request)).resolves.toMatchObject({ status: 201 });
    expect(refused.calls).toHaveLength(2);

    const reset = scripted(['reset']);
    const noAnswer: string[] = [];
    const resetHttp = new AtsHttp(
      'ATS-X',
      { fetch: reset.fetch, quickRetry: quick, hooks: { afterNoAnswer: (e) => noAnswer.push(e) } },
      1000,
    );
    await expect(resetHttp.send(request)).rejects.toMatchObject({ kind: 'unreachable', ambiguous: true });
    expect(reset.calls).toHaveLength(1);
    expect(noAnswer).toEqual(['POST /api/candidates']);

    const limited = scripted([429]);
    const limitedHttp = new AtsHttp('ATS-X', { fetch: limited.fetch, quickRetry: quick }, 1000);
    await expect(limitedHttp.send(request)).resolves.toMatchObject({ status: 429 });
    expect(limited.calls).toHaveLength(1);
  });

  it('does not retry a request that forbids it (a single-use grant)', async () => {
    const { calls, fetch } = scripted([500]);
    const http = new AtsHttp('ATS-X', { fetch, quickRetry: quick }, 1000);
    await expect(http.send({ ...request, quickRetry: false })).resolves.toMatchObject({ status: 500 });
    expect(calls).toHaveLength(1);
  });
});

describe(`${AtsHttp.name} with the URL policy`, () => {
  const fetchCounting = () => {
    const urls: string[] = [];
    const fetch = async (url: string | URL | Request) => {
      urls.push(String(url));
      return new Response('{}');
    };
    return { urls, fetch };
  };

  it('refuses plain http and private IP literals by default, before any request, as permanent', async () => {
    const { urls, fetch } = fetchCounting();
    const http = new AtsHttp('ATS-X', { fetch }, 1000);
    await expect(http.send({ ...request, url: 'http://ats.example/api' })).rejects.toMatchObject({
      kind: 'permanent',
      code: 'insecure_scheme',
    });
    await expect(http.send({ ...request, url: 'https://169.254.169.254/latest' })).rejects.toMatchObject({
      kind: 'permanent',
      code: 'blocked_address',
      ambiguous: false,
    });
    expect(urls).toEqual([]);
  });

  it('lets a loopback address through only under an explicit allowance', async () => {
    const { urls, fetch } = fetchCounting();
    const http = new AtsHttp('ATS-X', { fetch, guard: outboundGuard('loopback') }, 1000);
    await expect(http.send({ ...request, url: 'http://127.0.0.1:4010/api' })).resolves.toMatchObject({
      status: 200,
    });
    await expect(http.send({ ...request, url: 'http://10.0.0.8/api' })).rejects.toMatchObject({
      code: 'blocked_address',
    });
    expect(urls).toEqual(['http://127.0.0.1:4010/api']);
  });

  it('classifies a refusal at connect time (fetch failed, caused by the policy) as permanent', async () => {
    const http = new AtsHttp(
      'ATS-X',
      {
        fetch: async () => {
          throw new TypeError('fetch failed', {
            cause: new UrlPolicyError('blocked_address', 'ats.example points to 127.0.0.1'),
          });
        },
      },
      1000,
    );
    await expect(http.send(request)).rejects.toMatchObject({
      kind: 'permanent',
      code: 'blocked_address',
      ambiguous: false,
      message: expect.stringContaining('points to 127.0.0.1'),
    });
  });
});

describe('public barrel', () => {
  it("exposes the generic HTTP layer and the error class, no ATS client (they are the adapters')", () => {
    expect(Object.keys(publicApi)).toEqual(
      expect.arrayContaining(['AtsHttp', 'AtsError', 'checkAtsUrlPolicy', 'OutboundGuard', 'outboundGuard']),
    );
    expect(publicApi.AtsError).toBe(AtsError);
    expect(Object.keys(publicApi).filter((name) => /^(AtsA|AtsB|ATS_A|ATS_B)/.test(name))).toEqual([]);
  });
});
