import { setTimeout as sleep } from 'node:timers/promises';
import type { ChaosStack, DeadLetterRow } from './chaos-stack';
import type { Expectation, Verdict } from './expectations';
import { observe } from './world';

export interface ProgressSummary {
  total: number;
  done: number;
  failed: number;
  pending: number;
  duplicates: number;
  /** Share of expectations no longer pending. */
  settled: number;
}

export interface Outcome {
  expectation: Expectation;
  verdict: Verdict;
}

const POLL_MS = 250;

/** Watches the burst's expectations from outside, a few times a second, while the scenario runs. */
export class Progress {
  readonly expectations: Expectation[] = [];
  outcomes: Outcome[] = [];
  /** Expectations whose share triggers the faults (the burst's; a vacancy run settles on its own pace). */
  private readonly triggering = new Set<Expectation>();
  private deadLetters: DeadLetterRow[] = [];
  private running = false;
  private loop?: Promise<void>;

  constructor(private readonly stack: ChaosStack) {}

  add(expectations: readonly Expectation[], options: { trigger: boolean } = { trigger: true }): void {
    this.expectations.push(...expectations);
    if (options.trigger) for (const e of expectations) this.triggering.add(e);
  }

  start(): void {
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        await this.poll();
        await sleep(POLL_MS);
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  async poll(): Promise<ProgressSummary> {
    try {
      this.deadLetters = await this.stack.deadLetters();
    } catch {
      // Postgres restarting: the failure log read last time stands.
    }
    const world = observe(this.stack, this.deadLetters);
    this.outcomes = this.expectations.map((expectation) => ({
      expectation,
      verdict: expectation.check(world),
    }));
    return this.summary();
  }

  summary(): ProgressSummary {
    const count = (state: Verdict['state']) => this.outcomes.filter((o) => o.verdict.state === state).length;
    const total = this.outcomes.length;
    const pending = count('pending');
    return {
      total,
      done: count('done'),
      failed: count('failed'),
      pending,
      duplicates: this.outcomes.reduce((sum, o) => sum + o.verdict.duplicates, 0),
      settled: total === 0 ? 1 : (total - pending) / total,
    };
  }

  /** Resolves once `share` of the burst's expectations have settled, or after `timeoutMs` whatever the share. */
  async until(share: number, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.triggerShare() < share && Date.now() < deadline) await sleep(POLL_MS);
  }

  private triggerShare(): number {
    const counted = this.outcomes.filter((o) => this.triggering.has(o.expectation));
    if (counted.length === 0) return this.triggering.size === 0 ? 1 : 0;
    return counted.filter((o) => o.verdict.state !== 'pending').length / counted.length;
  }
}
