import type { Clock } from '../lib/rate-limiter';

/** A clock for tests: sleep() moves time forward at once and records how long was asked for. */
export class FakeClock implements Clock {
  readonly sleeps: number[] = [];

  constructor(private current = Date.UTC(2025, 0, 1)) {}

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.current += ms;
  }

  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.current += ms;
  }
}
