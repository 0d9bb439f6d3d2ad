import { register } from 'prom-client';
import { RateLimiterErrorCode, RateLimitExceededError } from '@connector/rate-limiter';
import { meteredAcquire } from './budget-metrics';

/** A sample's value: `name` is a metric or one of a histogram's series (`<histogram>_sum`). */
async function value(name: string, labels: Record<string, string>): Promise<number> {
  const metric = register.getSingleMetric(name) ?? register.getSingleMetric(name.replace(/_sum$/, ''));
  const values = metric ? (await metric.get()).values : [];
  return (
    values.find(
      (v) =>
        ((v as { metricName?: string }).metricName ?? name) === name &&
        Object.entries(labels).every(([k, l]) => v.labels[k] === l),
    )?.value ?? 0
  );
}

describe(meteredAcquire.name, () => {
  it('counts a grant that waited, with how long, and not one granted at once', async () => {
    await meteredAcquire('ats-b', 'push', async () => ({ waitedMs: 0 }));
    await meteredAcquire('ats-b', 'push', async () => ({ waitedMs: 1_500 }));
    expect(await value('connector_rate_limiter_waits_total', { ats: 'ats-b', priority: 'push' })).toBe(1);
    expect(
      await value('connector_rate_limiter_wait_seconds_sum', { ats: 'ats-b', priority: 'push' }),
    ).toBeCloseTo(1.5);
  });

  it('counts a refusal by reason and lets it through for the caller to wait', async () => {
    const paused = new RateLimitExceededError(RateLimiterErrorCode.Paused, 'ats-a:x', new Date());
    const exhausted = new RateLimitExceededError(RateLimiterErrorCode.Exceeded, 'ats-a:x', new Date());
    await expect(meteredAcquire('ats-a', 'sync', () => Promise.reject(paused))).rejects.toBe(paused);
    await expect(meteredAcquire('ats-a', 'sync', () => Promise.reject(exhausted))).rejects.toBe(exhausted);
    await expect(
      meteredAcquire('ats-a', 'sync', () => Promise.reject(new Error('db down'))),
    ).rejects.toThrow();
    const refusals = (reason: string) =>
      value('connector_rate_limiter_refusals_total', { ats: 'ats-a', priority: 'sync', reason });
    expect([await refusals('paused'), await refusals('exhausted')]).toEqual([1, 1]);
  });
});
