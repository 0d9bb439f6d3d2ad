export interface SystemBreakerOptions {
  /** Consecutive failures of a system's own fault that open its breaker. */
  failures: number;
  /** The first cool-down; each failed probe doubles it, up to maxCoolDownMs. */
  coolDownMs: number;
  maxCoolDownMs: number;
  now?: () => number;
}

export const DEFAULT_BREAKER_OPTIONS: SystemBreakerOptions = {
  failures: 5,
  coolDownMs: 5_000,
  maxCoolDownMs: 120_000,
};

/** What the breaker says to work for one system: go (maybe as the probe), or wait until `until`. */
export type BreakerAdmission = { open: false; probe: boolean } | { open: true; until: Date };

/** How the work that was let through ended, as far as the system's health goes. */
export type BreakerOutcome = 'answered' | 'system-fault' | 'unknown';

interface BreakerState {
  failures: number;
  /** Set while open, and after the cool-down until a probe's outcome is known. */
  openUntil?: number;
  coolDownMs: number;
  probing: boolean;
  lastAt: number;
}

/**
 * A circuit breaker per ATS system, in memory for this process. Closed, it counts consecutive failures that
 * are the system's fault; at `failures` it opens for a cool-down (5 s doubling to 2 min), in which work is
 * turned away without calling the ATS. Then one probe goes through: an answer closes it, another failure
 * opens it again for twice as long. A closed system's state is dropped on its first answer, and state left
 * idle is swept, so 10 000 systems cost only those in trouble.
 */
export class SystemBreakers {
  private readonly states = new Map<string, BreakerState>();
  private readonly options: Required<SystemBreakerOptions>;
  private lastSweep: number;

  constructor(options: Partial<SystemBreakerOptions> = {}) {
    this.options = { ...DEFAULT_BREAKER_OPTIONS, now: Date.now, ...options };
    this.lastSweep = this.options.now();
  }

  admit(key: string): BreakerAdmission {
    const now = this.options.now();
    this.sweep(now);
    const state = this.states.get(key);
    if (state?.openUntil === undefined) return { open: false, probe: false };
    state.lastAt = now;
    if (now < state.openUntil) return { open: true, until: new Date(state.openUntil) };
    // Cool-down over: the first comer probes; the rest wait one base cool-down for its outcome.
    if (state.probing) return { open: true, until: new Date(now + this.options.coolDownMs) };
    state.probing = true;
    return { open: false, probe: true };
  }

  /** The outcome of work admitted with `admission` (call it once per admitted work). */
  record(key: string, admission: { probe: boolean }, outcome: BreakerOutcome): void {
    const now = this.options.now();
    const state = this.states.get(key);
    if (outcome === 'answered') {
      // The system answers: closed, and nothing kept.
      if (state && (admission.probe || state.openUntil === undefined)) this.states.delete(key);
      return;
    }
    if (outcome === 'unknown') {
      // The probe never learnt anything (a lock, a lost lease): the next comer probes instead.
      if (state && admission.probe) state.probing = false;
      return;
    }
    if (!state) {
      this.states.set(key, { failures: 1, coolDownMs: 0, probing: false, lastAt: now });
      if (this.options.failures <= 1) this.open(this.states.get(key) as BreakerState, now, false);
      return;
    }
    state.lastAt = now;
    if (admission.probe) return this.open(state, now, true);
    // Calls already in flight when it opened do not extend it: only a probe does.
    if (state.openUntil !== undefined) return;
    state.failures += 1;
    if (state.failures >= this.options.failures) this.open(state, now, false);
  }

  /** Systems whose breaker is open or probing now. */
  openCount(): number {
    let open = 0;
    for (const state of this.states.values()) if (state.openUntil !== undefined) open += 1;
    return open;
  }

  /** Systems with any state kept (tests: 10 000 systems must not stay in memory). */
  size(): number {
    return this.states.size;
  }

  private open(state: BreakerState, now: number, again: boolean): void {
    state.coolDownMs = again
      ? Math.min(state.coolDownMs * 2, this.options.maxCoolDownMs)
      : this.options.coolDownMs;
    state.openUntil = now + state.coolDownMs;
    state.probing = false;
  }

  /** At most once a minute: forget systems nobody has asked about for longer than the longest cool-down. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    const idleMs = Math.max(60_000, this.options.maxCoolDownMs * 2);
    for (const [key, state] of this.states) {
      if (now - state.lastAt > idleMs) this.states.delete(key);
    }
  }
}
