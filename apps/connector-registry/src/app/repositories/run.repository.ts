import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { type DataSource, In, type Repository } from 'typeorm';
import { entitiesOf } from '@connector/persistence';
import { RunEntity } from '../runs/run.entity';
import { isUniqueViolation } from './job-mapping.repository';
import { ACTIVE_RUNS_OF_ACCOUNT, LATEST_RUNS, LOCK_ACCOUNT_RUNS } from './run.sql';

const ACTIVE_RUN_INDEX = 'uq_run_connector_active';

export type InsertRunResult =
  | { inserted: true }
  | { inserted: false; activeRunId: string | undefined }
  /** The account has `maxPerAccount` runs queued or running already. */
  | { inserted: false; accountLimit: true };

/** Runs in Postgres. */
@Injectable()
export class RunRepository {
  private readonly runs: Repository<RunEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.runs = dataSource.getRepository(RunEntity);
  }

  /**
   * Inserts a queued run, unless the connector already has one queued or running (the unique index says) or
   * its account has `maxPerAccount` (counted under a per-account lock, so two requests cannot both pass).
   */
  async insertQueued(run: RunEntity, maxPerAccount: number): Promise<InsertRunResult> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        await LOCK_ACCOUNT_RUNS.rows(manager, { accountId: run.accountId });
        const active = await manager.findOne(RunEntity, {
          where: { connectorId: run.connectorId, status: In(['queued', 'running']) },
        });
        if (active) return { inserted: false, activeRunId: active.id };
        const [row] = await ACTIVE_RUNS_OF_ACCOUNT.rows(manager, { accountId: run.accountId });
        if (row && row.count >= maxPerAccount) return { inserted: false, accountLimit: true };
        await manager.insert(RunEntity, run);
        return { inserted: true };
      });
    } catch (error) {
      if (!isUniqueViolation(error, ACTIVE_RUN_INDEX)) throw error;
      const active = await this.runs.findOne({
        where: { connectorId: run.connectorId, status: In(['queued', 'running']) },
      });
      return { inserted: false, activeRunId: active?.id };
    }
  }

  /** Records a run started elsewhere; false when it is already known or another run is active. */
  async insertRecorded(run: RunEntity): Promise<boolean> {
    try {
      await this.runs.insert(run);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async find(connectorId: string, runId: string): Promise<RunEntity | null> {
    if (!isUUID(runId)) return null;
    return this.runs.findOneBy({ id: runId, connectorId });
  }

  async list(connectorId: string, limit: number): Promise<RunEntity[]> {
    return this.runs.find({ where: { connectorId }, order: { queuedAt: 'DESC', id: 'DESC' }, take: limit });
  }

  /** The newest run of each connector. */
  async latest(connectorIds: string[]): Promise<Map<string, RunEntity>> {
    if (connectorIds.length === 0) return new Map();
    const rows = entitiesOf(this.runs, await LATEST_RUNS.rows(this.dataSource, { connectorIds }));
    return new Map(rows.map((run) => [run.connectorId, run]));
  }

  /** Reads a run under a row lock and saves what `change` returns (nothing when it returns undefined). */
  async updateLocked(
    runId: string,
    change: (run: RunEntity) => RunEntity | undefined,
  ): Promise<RunEntity | null | undefined> {
    if (!isUUID(runId)) return null;
    return this.dataSource.transaction(async (manager) => {
      const run = await manager.findOne(RunEntity, {
        where: { id: runId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!run) return null;
      const next = change(run);
      return next && manager.save(RunEntity, next);
    });
  }
}
