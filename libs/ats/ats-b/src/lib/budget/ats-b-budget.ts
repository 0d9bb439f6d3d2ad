import type { BudgetConnector } from '@connector/ats-core';
import type { BucketConfig } from '@connector/rate-limiter';
import { type AtsBLimits, atsBLimits } from '../ats-b.limits';

/**
 * ATS-B's per-minute limit per customer (ATS_B_REQUESTS_PER_MINUTE, 1 500 by default): a token bucket that
 * refills at the limit, with bursts of a fifteenth of it and a fifth of that kept for pushes (1 500: 25 a
 * second, bursts of 100, 20 for pushes).
 */
export function atsBBudget(
  connector: Pick<BudgetConnector, 'id'>,
  limits: Pick<AtsBLimits, 'requestsPerMinute'> = atsBLimits(),
): { key: string; bucket: BucketConfig } {
  const capacity = Math.round(limits.requestsPerMinute / 15);
  return {
    key: `ats-b:${connector.id}`,
    bucket: { capacity, refillPerSecond: limits.requestsPerMinute / 60, reserve: Math.floor(capacity / 5) },
  };
}
