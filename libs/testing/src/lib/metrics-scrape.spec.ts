import { metricValue, parseMetrics } from './metrics-scrape';

describe(parseMetrics.name, () => {
  const text = [
    '# HELP connector_ats_requests_total Calls',
    '# TYPE connector_ats_requests_total counter',
    'connector_ats_requests_total{ats="ats-a",endpoint="PATCH /api/candidates/{id}",status_class="2xx"} 3',
    'connector_ats_requests_total{ats="ats-a",endpoint="POST /api/candidates",status_class="5xx"} 1',
    'connector_ats_budget_used_calls{customer="https://a.example/x\\"y"} 12.5',
    'process_cpu_user_seconds_total 0.25',
  ].join('\n');

  it('reads names, labels (escapes included) and values, and sums what matches', () => {
    const samples = parseMetrics(text);
    expect(samples).toHaveLength(4);
    expect(samples[2]).toEqual({
      name: 'connector_ats_budget_used_calls',
      labels: { customer: 'https://a.example/x"y' },
      value: 12.5,
    });
    expect(metricValue(samples, 'connector_ats_requests_total', { ats: 'ats-a' })).toBe(4);
    expect(metricValue(samples, 'connector_ats_requests_total', { status_class: '2xx' })).toBe(3);
    expect(metricValue(samples, 'connector_ats_requests_total', { ats: 'ats-b' })).toBe(0);
    expect(metricValue(samples, 'process_cpu_user_seconds_total')).toBe(0.25);
  });
});
