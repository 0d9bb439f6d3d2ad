import { randomUUID } from 'node:crypto';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { VacancySyncConfig } from '../vacancy-sync.config';
import { RunDriver } from './run-driver.service';
import { SyncRunRepository } from './sync-run.repository';

/**
 * Every tick, in every process: enqueue a scheduled run for each connector whose interval has passed (claimed
 * in Postgres, so one process enqueues it), and drive connectors with a run that may go on (new, resumed
 * after a rate-limit reset or a retry delay, or left by a process that stopped or died).
 * The connectors are those vacancy-sync has been asked to run at least once: the registry offers no list of
 * all connectors across accounts.
 */
@Injectable()
export class RunScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(RunScheduler.name);
  private timer?: NodeJS.Timeout;
  private ticking = false;

  constructor(
    private readonly runs: SyncRunRepository,
    private readonly driver: RunDriver,
    @Inject(VacancySyncConfig) private readonly config: VacancySyncConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.config.SCHEDULER_TICK_MS);
    this.timer.unref();
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      for (const due of await this.runs.claimDue(this.config.RUN_CONCURRENCY)) {
        const runId = randomUUID();
        await this.runs.enqueue({ runId, trigger: 'scheduled', ...due });
        this.logger.log(`scheduled run ${runId} for connector ${due.connectorId}`);
      }
      for (const connectorId of await this.runs.runnableConnectors(this.config.RUN_CONCURRENCY * 4)) {
        this.driver.kick(connectorId);
      }
    } catch (error) {
      this.logger.error(`scheduler tick failed: ${(error as Error).message ?? String(error)}`);
    } finally {
      this.ticking = false;
    }
  }
}
