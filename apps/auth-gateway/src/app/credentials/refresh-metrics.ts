import { AuthErrorCode } from '@connector/contracts';
import { counter } from '@connector/observability';
import { GatewayError } from './gateway.error';

const refreshes = counter({
  name: 'connector_oauth_refreshes_total',
  help:
    'Renewals of ATS access (tokens, sessions) by ATS and outcome: renewed, extended (the current one still ' +
    'good), rejected (the ATS refused the credentials: a login or new secret is needed), rate_limited (no ' +
    'budget for the token call: it waits for the reset), unreachable, failed',
  labelNames: ['ats', 'outcome'],
});

export type RefreshOutcome = 'renewed' | 'extended' | 'rejected' | 'rate_limited' | 'unreachable' | 'failed';

/** A renewal that threw, by what the gateway answers the worker. */
export function refreshOutcomeOf(error: unknown): RefreshOutcome {
  if (!(error instanceof GatewayError)) return 'failed';
  if (error.code === AuthErrorCode.AuthorizationRequired || error.code === AuthErrorCode.AuthFailed) {
    return 'rejected';
  }
  if (error.code === AuthErrorCode.RateLimited) return 'rate_limited';
  return error.code === AuthErrorCode.Unreachable ? 'unreachable' : 'failed';
}

export function countRefresh(ats: string, outcome: RefreshOutcome): void {
  refreshes.inc({ ats, outcome });
}
