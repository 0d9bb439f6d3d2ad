import { AtsBError } from './ats-b.error';
import { mulberry32 } from './prng';

/** What `PUT /__sandbox/faults` accepts; the one-shot actions (expire, revoke) are applied, not kept. */
export interface FaultConfig {
  latencyMs?: number;
  jitterMs?: number;
  /** Probability per endpoint key, e.g. `{"PUT entity/Candidate": 0.5}`; `"*"` applies to every data call. */
  errorRate?: Record<string, number>;
  errorStatus?: number;
  /** true: every data call gets 429; a number: that many next data calls do. */
  force429?: boolean | number;
  expireSessions?: boolean;
  revokeRefreshTokens?: boolean;
  rejectNextRefresh?: boolean;
  /** Per endpoint key: how many next calls apply their write, then hold the connection and drop it. */
  timeoutAfterWrite?: Record<string, number>;
  timeoutMs?: number;
}

export interface ActiveFaults {
  latencyMs: number;
  jitterMs: number;
  errorRate: Record<string, number>;
  errorStatus: number;
  force429: boolean | number;
  timeoutAfterWrite: Record<string, number>;
  timeoutMs: number;
}

const NONE = (): ActiveFaults => ({
  latencyMs: 0,
  jitterMs: 0,
  errorRate: {},
  errorStatus: 500,
  force429: false,
  timeoutAfterWrite: {},
  timeoutMs: 30_000,
});

/** Injected faults; the random draws come from a seeded PRNG so a failing test replays the same way. */
export class FaultInjector {
  private active: ActiveFaults = NONE();
  private rand = mulberry32(42);

  get config(): ActiveFaults {
    return {
      ...this.active,
      errorRate: { ...this.active.errorRate },
      timeoutAfterWrite: { ...this.active.timeoutAfterWrite },
    };
  }

  /** Replaces the standing faults (PUT semantics); returns the one-shot actions requested. */
  set(
    input: FaultConfig,
    baseLatencyMs = 0,
    baseJitterMs = 0,
  ): { expireSessions: boolean; revokeRefreshTokens: boolean; rejectNextRefresh: boolean } {
    const next = NONE();
    next.latencyMs = nonNegative(input.latencyMs ?? baseLatencyMs, 'latencyMs');
    next.jitterMs = nonNegative(input.jitterMs ?? baseJitterMs, 'jitterMs');
    next.timeoutMs = nonNegative(input.timeoutMs ?? 30_000, 'timeoutMs');
    const status = input.errorStatus ?? 500;
    if (!Number.isInteger(status) || status < 400 || status > 599)
      throw AtsBError.badRequest('errorStatus must be 400..599');
    next.errorStatus = status;
    for (const [key, rate] of Object.entries(input.errorRate ?? {})) {
      if (typeof rate !== 'number' || rate < 0 || rate > 1)
        throw AtsBError.badRequest(`errorRate['${key}'] must be 0..1`);
      next.errorRate[key] = rate;
    }
    for (const [key, n] of Object.entries(input.timeoutAfterWrite ?? {})) {
      next.timeoutAfterWrite[key] = nonNegative(n, `timeoutAfterWrite['${key}']`);
    }
    const f429 = input.force429 ?? false;
    if (typeof f429 !== 'boolean') nonNegative(f429, 'force429');
    next.force429 = f429;
    this.active = next;
    this.rand = mulberry32(42);
    return {
      expireSessions: input.expireSessions === true,
      revokeRefreshTokens: input.revokeRefreshTokens === true,
      rejectNextRefresh: input.rejectNextRefresh === true,
    };
  }

  clear(baseLatencyMs = 0, baseJitterMs = 0): void {
    this.active = NONE();
    this.active.latencyMs = baseLatencyMs;
    this.active.jitterMs = baseJitterMs;
  }

  delayMs(): number {
    const { latencyMs, jitterMs } = this.active;
    if (latencyMs === 0 && jitterMs === 0) return 0;
    return latencyMs + (jitterMs > 0 ? Math.floor(this.rand() * jitterMs) : 0);
  }

  /** Status to fail this call with, or 0. */
  errorFor(key: string, isDataCall: boolean): number {
    const rates = this.active.errorRate;
    const rate = rates[key] ?? (isDataCall ? rates['*'] : undefined);
    return rate !== undefined && rate > 0 && this.rand() < rate ? this.active.errorStatus : 0;
  }

  take429(): boolean {
    const f = this.active.force429;
    if (f === true) return true;
    if (typeof f === 'number' && f > 0) {
      this.active.force429 = f - 1;
      return true;
    }
    return false;
  }

  /** Consumes one timeout-after-write for this key; the caller applies the write, then stalls. */
  takeTimeoutAfterWrite(key: string): number {
    const n = this.active.timeoutAfterWrite[key] ?? 0;
    if (n <= 0) return 0;
    this.active.timeoutAfterWrite[key] = n - 1;
    return this.active.timeoutMs;
  }
}

function nonNegative(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw AtsBError.badRequest(`${name} must be a non-negative number`);
  return value;
}
