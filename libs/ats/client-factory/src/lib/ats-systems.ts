import { Inject, Injectable, Optional } from '@nestjs/common';
import { AtsError } from '@connector/ats-http';
import { AtsRegistry } from '@connector/ats-core';
import type { ConnectorSnapshot } from '@connector/contracts';
import { gauge } from '@connector/observability';
import { KeyedConcurrency } from '@connector/rate-limiter';
import { type BreakerOutcome, type SystemBreakerOptions, SystemBreakers } from './system-breakers';

/** The kinds of work a worker does against an ATS system; each has its own slots per system. */
export const ATS_PATHS = [
  'candidate-writes',
  'application-writes',
  'document-writes',
  'vacancy-runs',
  'event-reads',
] as const;
export type AtsPath = (typeof ATS_PATHS)[number];

export interface AtsSystemsOptions {
  /** Work of one path on one ATS system at once in this process (ATS_SYSTEM_CONCURRENCY). */
  perSystem: number;
  /** How long work waits in its system's line before it is deferred, freeing its handler (ATS_SYSTEM_WAIT_MS). */
  maxWaitMs: number;
  /**
   * An open breaker defers a message, without an attempt, while the message (by `occurredAt`) is younger
   * than this; older, the refusal counts as a failed attempt, so a long outage still ends in the dead letters.
   */
  maxDeferAgeMs: number;
  breaker?: Partial<SystemBreakerOptions>;
}

export const ATS_SYSTEMS_OPTIONS = Symbol('ATS_SYSTEMS_OPTIONS');

export const DEFAULT_ATS_SYSTEMS_OPTIONS: AtsSystemsOptions = {
  perSystem: 4,
  maxWaitMs: 250,
  maxDeferAgeMs: 15 * 60_000,
};

/** The ATS system's breaker is open: its work waits until `until` without calling it. */
export class AtsSystemUnavailableError extends Error {
  constructor(
    readonly key: string,
    readonly until: Date,
    /** The message is old enough that this refusal counts as an attempt (see AtsSystemsOptions.maxDeferAgeMs). */
    readonly countsAsAttempt: boolean,
  ) {
    super(`this ATS is failing (5xx, timeouts or unreachable); waiting for it until ${until.toISOString()}`);
    this.name = AtsSystemUnavailableError.name;
  }
}

/** Work for one connector: `since` is when its message happened (platform events), for the defer rule. */
export interface SystemWork {
  since?: Date | string;
}

/**
 * The workers' bulkhead per ATS system: for each path, at most `perSystem` pieces of work on one system at
 * once (a slow or failing customer holds only its own slots), and a breaker per system that turns work away
 * while the system is failing. Busy or open, the work is deferred (DeferredMessageError through
 * toMessageError), its handler free for the next account's message. The system is the connector's budget key
 * (the customer system as its quota sees it), else the connector itself. No ATS is named here.
 */
@Injectable()
export class AtsSystems {
  readonly options: AtsSystemsOptions;
  readonly breakers: SystemBreakers;
  private readonly slots = new Map<AtsPath, KeyedConcurrency>();

  constructor(
    /** Each ATS keys its connectors' systems (its budget's key). */
    private readonly registry: AtsRegistry,
    @Optional() @Inject(ATS_SYSTEMS_OPTIONS) options?: Partial<AtsSystemsOptions>,
  ) {
    this.options = { ...DEFAULT_ATS_SYSTEMS_OPTIONS, ...options };
    this.breakers = new SystemBreakers(this.options.breaker);
    for (const path of ATS_PATHS) {
      this.slots.set(
        path,
        new KeyedConcurrency(`${path} per ATS system`, {
          perKey: this.options.perSystem,
          retryAfterMs: 1_000,
        }),
      );
    }
    LIVE.add(this);
  }

  /** The ATS system a connector's calls land on. */
  keyOf(connector: ConnectorSnapshot): string {
    const adapter = this.registry.has(connector.type) ? this.registry.get(connector.type) : undefined;
    return adapter?.budget?.(connector).key ?? `connector:${connector.id}`;
  }

  /**
   * `work` inside one of its system's slots for `path`, past its breaker: ConcurrencyBusyError when the
   * system's slots stay taken for maxWaitMs, AtsSystemUnavailableError while its breaker is open.
   */
  async run<T>(
    path: AtsPath,
    connector: ConnectorSnapshot,
    work: () => Promise<T>,
    options: SystemWork = {},
  ) {
    const key = this.keyOf(connector);
    const release = await this.pathSlots(path).acquire(key, { maxWaitMs: this.options.maxWaitMs });
    try {
      const admission = this.breakers.admit(key);
      if (admission.open)
        throw new AtsSystemUnavailableError(key, admission.until, this.tooOld(options.since));
      let outcome: BreakerOutcome = 'unknown';
      try {
        const result = await work();
        outcome = 'answered';
        return result;
      } catch (error) {
        outcome = breakerOutcomeOf(error);
        throw error;
      } finally {
        this.breakers.record(key, admission, outcome);
      }
    } finally {
      release();
    }
  }

  /** Per path: slots held, work waiting in a system's line, systems at their cap, the largest system's share. */
  snapshot(path: AtsPath) {
    return this.pathSlots(path).snapshot();
  }

  private pathSlots(path: AtsPath): KeyedConcurrency {
    return this.slots.get(path) as KeyedConcurrency;
  }

  private tooOld(since: SystemWork['since']): boolean {
    if (since === undefined) return false;
    const at = new Date(since).getTime();
    return Number.isFinite(at) && Date.now() - at > this.options.maxDeferAgeMs;
  }
}

/**
 * Whether a failure is the system's fault (5xx, timeouts, unreachable) for its breaker. A 4xx or a 429 is an
 * answer (the 429 pauses the budget instead); anything that is not the ATS's (a lock, the database) says nothing.
 */
export function breakerOutcomeOf(error: unknown): BreakerOutcome {
  if (!(error instanceof AtsError)) return 'unknown';
  switch (error.kind) {
    case 'transient':
    case 'unreachable':
      return 'system-fault';
    case 'auth':
    case 'forbidden':
    case 'rate_limited':
    case 'permanent':
    case 'not_found':
      return 'answered';
  }
}

/** Every AtsSystems of the process (one in a service; several in a test), read by the gauges below. */
const LIVE = new Set<AtsSystems>();

function perPath(read: (snapshot: ReturnType<AtsSystems['snapshot']>) => number, largest = false) {
  return function collect(this: { set: (labels: { path: string }, value: number) => void }) {
    for (const path of ATS_PATHS) {
      let value = 0;
      for (const systems of LIVE) {
        const v = read(systems.snapshot(path));
        value = largest ? Math.max(value, v) : value + v;
      }
      this.set({ path }, value);
    }
  };
}

gauge({
  name: 'connector_ats_system_slots_held',
  help: 'Slots held on ATS systems in this process, by path (candidate, application, document writes, vacancy runs, event reads)',
  labelNames: ['path'],
  collect: perPath((s) => s.held),
});
gauge({
  name: 'connector_ats_system_waiting',
  help: "Work waiting in an ATS system's line for one of its slots, by path (after a short wait it is deferred)",
  labelNames: ['path'],
  collect: perPath((s) => s.waiting),
});
gauge({
  name: 'connector_ats_systems_at_cap',
  help: 'ATS systems whose every slot of a path is taken in this process, by path',
  labelNames: ['path'],
  collect: perPath((s) => s.fullKeys),
});
gauge({
  name: 'connector_ats_system_largest_share',
  help: "The largest share (0-1) of a path's held slots that one ATS system holds in this process, by path",
  labelNames: ['path'],
  collect: perPath((s) => s.largestShare, true),
});
gauge({
  name: 'connector_ats_system_breakers_open',
  help: 'ATS systems whose breaker is open or probing in this process (their work is deferred without a call)',
  collect() {
    let open = 0;
    for (const systems of LIVE) open += systems.breakers.openCount();
    this.set(open);
  },
});
