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
      },
      1000,
    );
    await expect(http.send(request)).rejects.toMatchObject({ kind: 'unreachable', ambiguous: false });
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
  it('exposes the clients and the error class', () => {
    expect(Object.keys(publicApi)).toEqual(
      expect.arrayContaining([
        'AtsAClient',
        'AtsBClient',
        'AtsBOAuthClient',
        'AtsError',
        'checkAtsUrlPolicy',
        'OutboundGuard',
        'outboundGuard',
      ]),
    );
    expect(publicApi.AtsError).toBe(AtsError);
  });
});
