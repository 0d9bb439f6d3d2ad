import { AuthErrorCode } from '@connector/contracts';
import { gauge } from '@connector/observability';
import { KeyedConcurrency } from '@connector/rate-limiter';
import { GatewayError } from './gateway.error';

const held = gauge({
  name: 'connector_gateway_ats_calls',
  help: "auth-gateway's ATS calls under way in this process by kind (renewals, connection tests): slots held of its caps",
  labelNames: ['kind'],
});

export interface AtsCallSlotsOptions {
  /** ATS calls of this kind at once in this process, all systems together. */
  total: number;
  /** ATS calls of this kind at once for one key (a customer's system, an account). */
  perKey: number;
  /** What a refusal tells the caller to wait (jittered by ±50 %). */
  retryAfterMs: number;
}

/**
 * A bulkhead for the gateway's ATS calls of one kind (renewals, connection tests): a global cap and a cap per
 * key. Beyond them the request is refused at once with BUSY and a jittered `retryAfterMs`, never queued: a
 * queue would hold the prefetch slots every other request needs, and a slow system only its own slots.
 */
export class AtsCallSlots {
  private readonly all: KeyedConcurrency;
  private readonly keys: KeyedConcurrency;

  constructor(
    readonly name: string,
    private readonly options: AtsCallSlotsOptions,
  ) {
    this.all = new KeyedConcurrency(name, { perKey: options.total });
    this.keys = new KeyedConcurrency(`${name} per key`, { perKey: options.perKey });
  }

  /**
   * `waitMs`: how long to wait in the key's own line (first come, first served) before BUSY; 0 by default. Only
   * for work that holds nothing another key needs while it waits.
   */
  async run<T>(key: string, work: () => Promise<T>, waitMs = 0): Promise<T> {
    const releaseKey =
      waitMs > 0
        ? await this.keys.acquire(key, { maxWaitMs: waitMs }).catch(() => undefined)
        : this.keys.tryAcquire(key);
    if (!releaseKey) throw this.busy(`every ${this.name} slot of this system is taken`);
    const releaseAll = this.all.tryAcquire('all');
    if (!releaseAll) {
      releaseKey();
      throw this.busy(`auth-gateway is at its limit of ${this.name}`);
    }
    held.inc({ kind: this.name });
    try {
      return await work();
    } finally {
      held.dec({ kind: this.name });
      releaseAll();
      releaseKey();
    }
  }

  /** Held slots now (gauges, tests). */
  held(): number {
    return this.all.held('all');
  }

  private busy(reason: string): GatewayError {
    const retryAfterMs = Math.round(this.options.retryAfterMs * (0.5 + Math.random()));
    return new GatewayError(
      AuthErrorCode.Busy,
      `${reason}; try again in ${Math.ceil(retryAfterMs / 100) / 10} s`,
      retryAfterMs,
    );
  }
}
