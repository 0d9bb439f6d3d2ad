import { register } from 'prom-client';
import { collectProcessMetrics, counter, statusClass } from './metrics';

describe('metrics helpers', () => {
  it('gives the metric already declared under a name instead of failing on a second declaration', () => {
    const first = counter({ name: 'connector_test_things_total', help: 'things', labelNames: ['kind'] });
    const second = counter({ name: 'connector_test_things_total', help: 'things', labelNames: ['kind'] });
    expect(second).toBe(first);
  });

  it('classes HTTP statuses', () => {
    expect([200, 204, 301, 404, 429, 503, 0].map(statusClass)).toEqual([
      '2xx',
      '2xx',
      '3xx',
      '4xx',
      '4xx',
      '5xx',
      'other',
    ]);
  });

  it('registers the process metrics once however often it is asked', async () => {
    collectProcessMetrics();
    collectProcessMetrics();
    const text = await register.metrics();
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });
});
