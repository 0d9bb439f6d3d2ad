import type { Logger } from '@nestjs/common';

/**
 * A tick run in the background every `everyMs`, from `start` (on bootstrap) to `stop` (on destroy). A tick still
 * under way when the next is due is not run twice: that one is skipped. A tick's failure is logged as
 * "`what` failed: …", never thrown, and the next tick runs as usual.
 */
export class PeriodicJob<T> {
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly what: string,
    private readonly tick: () => Promise<T>,
  ) {}

  start(everyMs: number): void {
    this.stop();
    this.timer = setInterval(() => void this.runOnce(), everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One tick now: its result, or undefined when a tick was already under way or this one failed. */
  async runOnce(): Promise<T | undefined> {
    if (this.running) return undefined;
    this.running = true;
    try {
      return await this.tick();
    } catch (error) {
      this.logger.warn(`${this.what} failed: ${(error as Error).message}`);
      return undefined;
    } finally {
      this.running = false;
    }
  }
}
