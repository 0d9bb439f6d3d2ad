import { ENDPOINT_SCOPES } from '../ats-a.protocol';
import { validation } from '../sandbox.error';

export interface FaultConfig {
  /** Added to every /api call. */
  latencyMs: number;
  /** Uniform extra latency in [0, jitterMs]. */
  jitterMs: number;
  /** Probability per endpoint key (e.g. "POST /api/candidates") of answering errorStatus instead of working. */
  errorRate: Record<string, number>;
  errorStatus: 500 | 503;
  /** Per endpoint key: the next N calls answer errorStatus (a blip of a known length), then it works again. */
  failNext: Record<string, number>;
  /** Every /api call gets 429 as if the daily limit were spent. */
  force429: boolean;
  /** Per endpoint key: the next N writes are applied, then the connection is held and dropped without answer. */
  timeoutAfterWrite: Record<string, number>;
  /** How long a timed-out write holds the connection before destroying it (default 30 s). */
  timeoutMs: number;
}

export interface FaultUpdate extends Partial<FaultConfig> {
  /** One-shot action, not kept in the config: every current token becomes invalid. */
  revokeTokens?: boolean;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** Normalises "post /api/candidates/:id" and "POST /api/candidates/{id}" to one key. */
export function endpointKey(raw: string): string {
  const [method = '', path = ''] = raw.trim().split(/\s+/, 2);
  return `${method.toUpperCase()} ${path.replace(/:([A-Za-z]+)/g, '{$1}')}`;
}

export class FaultInjector {
  private config: FaultConfig;

  constructor(
    private readonly baseLatencyMs: number,
    private readonly random: () => number = Math.random,
    private readonly baseJitterMs = 0,
  ) {
    this.config = this.defaults();
  }

  private defaults(): FaultConfig {
    return {
      latencyMs: this.baseLatencyMs,
      jitterMs: this.baseJitterMs,
      errorRate: {},
      failNext: {},
      errorStatus: 500,
      force429: false,
      timeoutAfterWrite: {},
      timeoutMs: DEFAULT_TIMEOUT_MS,
    };
  }

  current(): FaultConfig {
    return {
      ...this.config,
      errorRate: { ...this.config.errorRate },
      failNext: { ...this.config.failNext },
      timeoutAfterWrite: { ...this.config.timeoutAfterWrite },
    };
  }

  /** PUT semantics: the given fields on top of the defaults (an empty body clears every fault). */
  replace(update: FaultUpdate): FaultConfig {
    if (typeof update !== 'object' || update === null || Array.isArray(update))
      throw validation('Body must be an object');
    const next = this.defaults();
    if (update.latencyMs !== undefined) next.latencyMs = nonNegative('latencyMs', update.latencyMs);
    if (update.jitterMs !== undefined) next.jitterMs = nonNegative('jitterMs', update.jitterMs);
    if (update.timeoutMs !== undefined) next.timeoutMs = nonNegative('timeoutMs', update.timeoutMs);
    if (update.errorStatus !== undefined) {
      if (update.errorStatus !== 500 && update.errorStatus !== 503)
        throw validation('errorStatus must be 500 or 503');
      next.errorStatus = update.errorStatus;
    }
    if (update.force429 !== undefined) {
      if (typeof update.force429 !== 'boolean') throw validation('force429 must be a boolean');
      next.force429 = update.force429;
    }
    next.errorRate = endpointMap(
      'errorRate',
      update.errorRate,
      (v) => typeof v === 'number' && v >= 0 && v <= 1,
    );
    next.failNext = endpointMap(
      'failNext',
      update.failNext,
      (v) => Number.isInteger(v) && (v as number) >= 0,
    );
    next.timeoutAfterWrite = endpointMap(
      'timeoutAfterWrite',
      update.timeoutAfterWrite,
      (v) => Number.isInteger(v) && (v as number) >= 0,
    );
    this.config = next;
    return this.current();
  }

  reset(): void {
    this.config = this.defaults();
  }

  delayMs(): number {
    const { latencyMs, jitterMs } = this.config;
    return jitterMs > 0 ? latencyMs + Math.floor(this.random() * (jitterMs + 1)) : latencyMs;
  }

  get force429(): boolean {
    return this.config.force429;
  }

  get errorStatus(): 500 | 503 {
    return this.config.errorStatus;
  }

  get timeoutMs(): number {
    return this.config.timeoutMs;
  }

  shouldFail(endpoint: string): boolean {
    const left = this.config.failNext[endpoint];
    if (left) {
      this.config.failNext[endpoint] = left - 1;
      return true;
    }
    const rate = this.config.errorRate[endpoint];
    return rate !== undefined && rate > 0 && this.random() < rate;
  }

  /** True (and one fewer left) when this write must be applied and then left unanswered. */
  takeTimeoutAfterWrite(endpoint: string): boolean {
    const left = this.config.timeoutAfterWrite[endpoint];
    if (!left) return false;
    this.config.timeoutAfterWrite[endpoint] = left - 1;
    return true;
  }
}

function nonNegative(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw validation(`${name} must be a non-negative number`);
  return value;
}

function endpointMap(name: string, value: unknown, valid: (v: unknown) => boolean): Record<string, number> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw validation(`${name} must be an object of endpoint: number`);
  const result: Record<string, number> = {};
  for (const [rawKey, v] of Object.entries(value as Record<string, unknown>)) {
    const key = endpointKey(rawKey);
    // Unknown keys are refused so a typo cannot silently disable a fault a test relies on.
    if (!(key in ENDPOINT_SCOPES))
      throw validation(
        `${name}: unknown endpoint ${rawKey} (known: ${Object.keys(ENDPOINT_SCOPES).join(', ')})`,
      );
    if (!valid(v)) throw validation(`${name}[${rawKey}] has an invalid value`);
    result[key] = v as number;
  }
  return result;
}
