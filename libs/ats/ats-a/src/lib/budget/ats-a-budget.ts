import { retryAtOf } from '@connector/ats-http';
import { normalizeAtsABaseUrl } from '../client/ats-a-base-url';
import type { ConnectorSnapshot } from '@connector/contracts';
import { parseResetTime, type QuotaConfig, type QuotaHeaders } from '@connector/rate-limiter';

export const DEFAULT_ATS_A_DAILY_CALL_LIMIT = 10_000;

/**
 * ATS-A's daily limit belongs to the customer's system, shared by all its API keys: an account's connectors
 * on the same address share one quota window (the planner in @connector/rate-limiter). The connector's
 * options give the limit (`dailyCallLimit`) and the reset time of day in UTC (`dailyResetUtc`, "HH:MM",
 * default midnight) for as long as the ATS does not name them in its X-RateLimit-* headers.
 */
export function atsAQuota(connector: Pick<ConnectorSnapshot, 'id' | 'accountId' | 'config' | 'options'>): {
  key: string;
  config: QuotaConfig;
} {
  const limit = Number(connector.options['dailyCallLimit'] ?? DEFAULT_ATS_A_DAILY_CALL_LIMIT);
  const reset = connector.options['dailyResetUtc'];
  return {
    key: atsAQuotaKey(connector),
    config: {
      limit: Number.isFinite(limit) && limit > 0 ? limit : DEFAULT_ATS_A_DAILY_CALL_LIMIT,
      resetMinuteUtc: typeof reset === 'string' ? parseResetTime(reset) : 0,
    },
  };
}

/**
 * One key per account and customer system (its base address as the connector calls it): another account
 * with credentials on the same address has its own window, so its `dailyCallLimit` never changes this
 * account's plan. What both spend reaches each through the ATS's own X-RateLimit-Remaining.
 */
export function atsAQuotaKey(connector: Pick<ConnectorSnapshot, 'id' | 'accountId' | 'config'>): string {
  const baseUrl = connector.config['baseUrl'];
  if (typeof baseUrl !== 'string') return `ats-a:${connector.accountId}:${connector.id}`;
  try {
    return `ats-a:${connector.accountId}:${normalizeAtsABaseUrl(baseUrl)}`;
  } catch {
    return `ats-a:${connector.accountId}:${baseUrl}`;
  }
}

/**
 * The X-RateLimit-* (and Retry-After) headers of an answer, read tolerantly; null where absent. `inFlight`:
 * our calls still on their way, which the ATS had not counted yet: taken off what it says remains.
 */
export function quotaHeadersOf(headers: Headers, now: Date, inFlight = 0): QuotaHeaders {
  const number = (name: string): number | null => {
    const raw = headers.get(name)?.trim();
    const value = raw ? Number(raw) : NaN;
    return Number.isFinite(value) && value >= 0 ? value : null;
  };
  const namesReset = headers.has('x-ratelimit-reset') || headers.has('retry-after');
  const remaining = number('x-ratelimit-remaining');
  return {
    limit: number('x-ratelimit-limit'),
    remaining: remaining === null ? null : Math.max(0, remaining - inFlight),
    resetAt: namesReset ? retryAtOf(headers, now, 0).getTime() : null,
  };
}
