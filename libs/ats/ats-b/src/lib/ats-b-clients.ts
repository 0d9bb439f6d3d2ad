import { type AtsClientDeps, type AtsClientMaker, tokenBucketHooks } from '@connector/ats-core';
import { atsBAccessOf } from './ats-b-access';
import { atsBBudget } from './budget/ats-b-budget';
import { AtsBClient } from './client/ats-b.client';

/** ATS-B's clients: each call takes a token from the connector's per-minute bucket (a 429 pauses it). */
export function makeAtsBClients(deps: AtsClientDeps): AtsClientMaker<AtsBClient> {
  return ({ connector, options, access }) =>
    new AtsBClient({
      guard: deps.guard,
      session: async ({ rejected }) => {
        const { bhRestToken, restUrl } = atsBAccessOf(await access(rejected));
        return { bhRestToken, restUrl };
      },
      hooks: tokenBucketHooks(deps.limiter, 'ats-b', atsBBudget(connector), options),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.maxResponseBytes !== undefined ? { maxResponseBytes: options.maxResponseBytes } : {}),
    });
}
