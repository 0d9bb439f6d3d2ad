import type { ConnectorSnapshot } from '@connector/contracts';
import { type BucketConfig, dailyQuotaBucket } from '@connector/rate-limiter';

export const DEFAULT_ATS_A_DAILY_CALL_LIMIT = 10_000;

/**
 * ATS-A's daily limit belongs to the customer's system, shared by all its API keys: connectors on the same
 * address share one bucket. The burst lets a sync run at full speed for a while; the refill
 * (limit / 86 400 per second) keeps the day within the limit; a fifth of the bucket is kept for pushes.
 */
export function atsABudget(connector: ConnectorSnapshot): { key: string; bucket: BucketConfig } {
  const limit = Number(connector.options.dailyCallLimit ?? DEFAULT_ATS_A_DAILY_CALL_LIMIT);
  return {
    key: `ats-a:${String(connector.config.baseUrl ?? connector.id)}`,
    bucket: dailyQuotaBucket(limit, { burst: Math.max(10, Math.floor(limit / 20)), reserveFraction: 0.2 }),
  };
}

/** ATS-B allows 1 500 requests a minute per customer: 25 a second, bursts of 100, 20 kept for pushes. */
export function atsBBudget(connector: ConnectorSnapshot): { key: string; bucket: BucketConfig } {
  return { key: `ats-b:${connector.id}`, bucket: { capacity: 100, refillPerSecond: 25, reserve: 20 } };
}
