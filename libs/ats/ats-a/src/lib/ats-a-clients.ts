import type { AtsClientDeps, AtsClientMaker } from '@connector/ats-core';
import { atsAAccessOf } from './ats-a-access';
import { AtsACallsInFlight, atsABudgetHooks } from './budget/ats-a-budget-hooks';
import { atsAQuota } from './budget/ats-a-budget';
import { AtsAClient } from './client/ats-a.client';

/**
 * ATS-A's clients for one process: each call takes from the customer system's daily quota (the planner,
 * which also reads every answer's X-RateLimit-* headers, with this process's calls still in flight); a 429
 * pauses the quota for every worker until the ATS's reset.
 */
export function makeAtsAClients(deps: AtsClientDeps): AtsClientMaker<AtsAClient> {
  const calls = new AtsACallsInFlight();
  return ({ connector, options, access }) => {
    const { key, config } = atsAQuota(connector);
    const { waiter } = options;
    return new AtsAClient({
      guard: deps.guard,
      // No baseUrl from the connector's config: the address comes with the access, from auth-gateway,
      // which verified it (URL policy) when the credentials were saved. One copy, never two that disagree.
      token: async ({ rejected }) => {
        const { accessToken, baseUrl } = atsAAccessOf(await access(rejected));
        return { accessToken, baseUrl };
      },
      hooks: atsABudgetHooks(
        { quota: deps.quota, calls, logger: deps.logger },
        { key, config },
        {
          priority: options.priority,
          maxWaitMs: options.maxWaitMs ?? 0,
          ...(waiter ? { waiter } : {}),
          ...(options.onCall ? { onCall: options.onCall } : {}),
        },
      ),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.maxResponseBytes !== undefined ? { maxResponseBytes: options.maxResponseBytes } : {}),
    });
  };
}
