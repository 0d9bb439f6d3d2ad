import { register } from 'prom-client';
import { AtsHttp } from './ats-http';

const request = (endpoint: string) => ({
  endpoint,
  method: 'PATCH' as const,
  url: 'https://ats.example/api/candidates/123',
  json: {},
  write: true,
});

async function calls(labels: Record<string, string>): Promise<number> {
  const metric = register.getSingleMetric('connector_ats_requests_total');
  const values = metric ? (await metric.get()).values : [];
  return values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value ?? 0;
}

describe('ATS call metrics', () => {
  it('counts every call by ATS, endpoint template and status class, and one with no answer by why', async () => {
    const statuses = [200, 503];
    const http = new AtsHttp(
      'ATS-Y',
      {
        fetch: async () => {
          const status = statuses.shift();
          if (status === undefined) throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
          return new Response('{}', { status });
        },
        quickRetry: false, // one answer per send: the counts are the point
      },
      10_000, // the call timeout: never the point here, even on a loaded machine
    );
    const endpoint = 'PATCH /api/candidates/{id}';
    await http.send(request(endpoint));
    await http.send(request(endpoint));
    await expect(http.send(request(endpoint))).rejects.toMatchObject({ kind: 'unreachable' });
    expect(await calls({ ats: 'ats-y', endpoint, status_class: '2xx' })).toBe(1);
    expect(await calls({ ats: 'ats-y', endpoint, status_class: '5xx' })).toBe(1);
    expect(await calls({ ats: 'ats-y', endpoint, status_class: 'network_error' })).toBe(1);
    const text = await register.getSingleMetricAsString('connector_ats_request_duration_seconds');
    expect(text).toContain(
      'connector_ats_request_duration_seconds_count{ats="ats-y",endpoint="PATCH /api/candidates/{id}",status_class="2xx"} 1',
    );
    // No label holds the record's id (the values may hold any digits: a duration's sum can read 0.00123…).
    expect(text).not.toMatch(/\{[^}]*123[^}]*\}/);
  });

  it('does not count a call the rate limiter refused: none was made', async () => {
    const http = new AtsHttp(
      'ATS-Z',
      {
        fetch: async () => new Response('{}'),
        hooks: { beforeCall: () => Promise.reject(new Error('no budget')) },
      },
      10_000, // the call timeout: never the point here, even on a loaded machine
    );
    await expect(http.send(request('GET ping'))).rejects.toThrow('no budget');
    expect(await register.getSingleMetricAsString('connector_ats_requests_total')).not.toContain('ats-z');
  });
});
