import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { VacancySyncConfig } from '../vacancy-sync.config';
import { RunDriver } from './run-driver.service';
import { scheduleMetrics } from './run-metrics';
import { SyncRunRepository } from './sync-run.repository';

/** Rounds of claims in one fill: a backlog larger than the free slots waits for the next freed slot. */
const MAX_ROUNDS = 10;

/**
 * Keeps this process's run slots full, in every process: on each tick (and when a run ends while due
 * connectors wait for a slot), it first drives connectors with a run that may go on (an asked-for Run first;
 * then runs resumed after a rate-limit reset or a retry delay, or left by a process that stopped or died), then
 * claims due connectors for the slots still free (first syncs first, the longest overdue next, a cap per
 * customer system; claimed in Postgres with the connector's lease, so one process runs it). The decisions are `pickDue` and `nextSlot` (run-schedule.ts).
 * The connectors are those vacancy-sync has been told of (`connector.status_changed`) or asked to run.
 */
@Injectable()
export class RunScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(RunScheduler.name);
  private timer?: NodeJS.Timeout;
  private filling?: Promise<void>;
  /** A slot freed or a tick came while filling: fill once more after. */
  private again = false;
  /**
   * The last fill left due connectors unclaimed for want of free slots: a slot freed is filled at once. Else
   * the next tick fills it (at most SCHEDULER_TICK_MS late), so a fleet's many quick runs do not each cost a
   * round of claim statements when they end.
   */
  private shortOfSlots = false;
  private stopping = false;

  constructor(
    private readonly runs: SyncRunRepository,
    private readonly driver: RunDriver,
    @Inject(VacancySyncConfig) private readonly config: VacancySyncConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.driver.onSlotFreed = () => {
      if (this.shortOfSlots) void this.tick();
    };
    scheduleMetrics.countDueWith(() => this.runs.dueCount());
    this.timer = setInterval(() => void this.tick(), this.config.SCHEDULER_TICK_MS);
    this.timer.unref();
  }

  beforeApplicationShutdown(): void {
    this.stopping = true;
    clearInterval(this.timer);
  }

  /** Fills the free run slots; a call while a fill is going on makes that fill go round once more. */
  tick(): Promise<void> {
    if (this.filling) {
      this.again = true;
      return this.filling;
    }
    this.filling = this.fill().finally(() => (this.filling = undefined));
    return this.filling;
  }

  private async fill(): Promise<void> {
    try {
      for (let round = 0; round < MAX_ROUNDS && !this.stopping; round++) {
        this.again = false;
        const resumed = await this.runs.runnableConnectors(this.driver.freeSlots());
        for (const connectorId of resumed) this.driver.kick(connectorId);
        const limit = this.driver.freeSlots();
        const claimed = await this.runs.claimDue({
          limit,
          owner: this.driver.owner,
          ttlMs: this.config.RUN_LEASE_TTL_MS,
          perSystem: this.config.RUN_SYSTEM_CONCURRENCY,
          perAccount: this.config.MAX_CONCURRENT_RUNS_PER_ACCOUNT,
        });
        for (const run of claimed) {
          scheduleMetrics.started(run);
          // A slot taken meanwhile (a Run asked for): the run waits, runnable, for the next free slot anywhere.
          if (!this.driver.kick(run.connectorId, run.head))
            await this.runs.releaseLease(run.connectorId, this.driver.owner);
        }
        this.shortOfSlots = claimed.length >= limit || this.driver.freeSlots() === 0;
        if (!this.again && (claimed.length < limit || this.driver.freeSlots() === 0)) return;
      }
    } catch (error) {
      this.logger.error(`scheduler tick failed: ${(error as Error).message ?? String(error)}`);
    }
  }
}
