import type { BudgetConnector } from '@connector/ats-core';
import type { BucketConfig } from '@connector/rate-limiter';

/** ATS-B allows 1 500 requests a minute per customer: 25 a second, bursts of 100, 20 kept for pushes. */
export function atsBBudget(connector: Pick<BudgetConnector, 'id'>): { key: string; bucket: BucketConfig } {
  return { key: `ats-b:${connector.id}`, bucket: { capacity: 100, refillPerSecond: 25, reserve: 20 } };
}
