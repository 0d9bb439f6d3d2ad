import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { renewWhileHeld } from '@connector/persistence';
import { VacancySyncConfig } from '../vacancy-sync.config';
import { SyncRunService } from './sync-run.service';
import { type HeadRun, SyncRunRepository } from './sync-run.repository';

/**
 * Runs connectors' runs in the background of this process. Driving a connector means taking its lease (one
 * process per connector at a time), then executing its oldest open run, then the next, until none may go on
 * now (none left, or the head run is parked until a rate-limit reset); the last run's end gives the lease
 * back. Messages only enqueue runs, so no consumer is held for the length of a run.
 */
@Injectable()
export class RunDriver implements BeforeApplicationShutdown {
  private readonly logger = new Logger(RunDriver.name);
  /** Identifies this process in `sync_connector.lease_owner`. */
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly active = new Map<string, Promise<void>>();
  private stopping = false;
  /** Told whenever a run slot frees up (the scheduler fills it). */
  onSlotFreed: () => void = () => undefined;

  constructor(
    private readonly runs: SyncRunRepository,
    private readonly executor: SyncRunService,
    @Inject(VacancySyncConfig) private readonly config: VacancySyncConfig,
  ) {}

  /**
   * Starts driving a connector unless this process already does or is at its concurrency (then false).
   * `claimed`: the scheduler's claim took the connector's lease for this process and made this its head run.
   */
  kick(connectorId: string, claimed?: HeadRun): boolean {
    if (this.stopping || this.active.has(connectorId)) return false;
    if (this.active.size >= this.config.RUN_CONCURRENCY) return false; // the scheduler comes back when a slot frees
    const work = this.drive(connectorId, claimed)
      .catch((error: unknown) =>
        this.logger.error(`driving ${connectorId} stopped: ${(error as Error).message ?? String(error)}`),
      )
      .finally(() => {
        this.active.delete(connectorId);
        if (!this.stopping) this.onSlotFreed();
      });
    this.active.set(connectorId, work);
    return true;
  }

  /** Run slots this process has free now. */
  freeSlots(): number {
    return this.stopping ? 0 : this.config.RUN_CONCURRENCY - this.active.size;
  }

  isDriving(connectorId: string): boolean {
    return this.active.has(connectorId);
  }

  /** Lets running runs reach a page boundary and leave their cursor for another process. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled([...this.active.values()]);
  }

  private async drive(connectorId: string, claimed: HeadRun | undefined): Promise<void> {
    const ttlMs = this.config.RUN_LEASE_TTL_MS;
    if (!claimed && !(await this.runs.tryLease(connectorId, this.owner, ttlMs))) return;
    // Kept alive between page commits (a slow page, a wait for budget); lost, the run stops at its next step.
    const renewal = renewWhileHeld(`connector ${connectorId}`, ttlMs, () =>
      this.runs.renewLease(connectorId, this.owner, ttlMs),
    );
    let released = false;
    let next = claimed;
    try {
      while (!this.stopping && !renewal.signal.aborted) {
        const head = next ?? (await this.runs.headRun(connectorId));
        next = undefined;
        if (!head || (head.resumeAt && head.resumeAt.getTime() > Date.now())) return;
        const outcome = await this.executor.execute(head, this.owner, () => this.stopping, renewal.signal);
        switch (outcome) {
          case 'finished':
            continue;
          case 'done':
            released = true; // with the run's end: the connector had no other open run
            return;
          case 'parked':
          case 'lease-lost':
          case 'stopped':
            return;
        }
      }
    } finally {
      renewal.stop();
      if (!released) await this.runs.releaseLease(connectorId, this.owner);
    }
  }
}
