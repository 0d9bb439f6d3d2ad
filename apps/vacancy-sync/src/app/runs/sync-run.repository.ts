import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager, In, type Repository } from 'typeorm';
import type { RunMode, RunWarningDto } from '@connector/contracts';
import { entitiesOf, textColumn, rowsOf } from '@connector/persistence';
import { RunLeaseLostError } from './run-lease-lost.error';
import type { RunPhase, RunTrigger, SyncConnector, SyncRun, SyncRunStatus } from './sync-run';
import { SyncConnectorEntity } from './sync-connector.entity';
import { SyncRunEntity } from './sync-run.entity';

const OPEN: SyncRunStatus[] = ['queued', 'running', 'paused'];

/** The lease's end, at the database clock, `:ttlSeconds` from now. */
const LEASE_UNTIL = 'clock_timestamp() + make_interval(secs => :ttlSeconds)';

/** The run's warnings with `:warnings` (a JSON array) added, each code and message kept once. */
const WARNINGS_ADDED = `warnings || (SELECT coalesce(jsonb_agg(w), '[]'::jsonb)
  FROM jsonb_array_elements(CAST(:warnings AS jsonb)) w WHERE NOT warnings @> jsonb_build_array(w))`;

export interface NewRun {
  runId: string;
  connectorId: string;
  accountId: string;
  trigger: RunTrigger;
  requestedMode?: RunMode;
  correlationId?: string;
}

/** Progress to add to a run when a step commits. */
export interface RunDelta {
  fetched?: number;
  upserted?: number;
  unchanged?: number;
  closed?: number;
  read?: number;
  apiCalls?: number;
  /** Added to the run's warnings (one of each code and message is kept). */
  warnings?: RunWarningDto[];
}

/**
 * `sync_connector` and `sync_run`: the schedule, the per-connector run lease (one row per connector, taken by
 * a conditional UPDATE, so however many processes run, one holds a connector at a time) and runs' cursors.
 */
@Injectable()
export class SyncRunRepository {
  private readonly connectors: Repository<SyncConnectorEntity>;
  private readonly runs: Repository<SyncRunEntity>;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.connectors = db.getRepository(SyncConnectorEntity);
    this.runs = db.getRepository(SyncRunEntity);
  }

  /** Makes the connector known to the scheduler, its first scheduled sync `firstInSeconds` from now. */
  async registerConnector(connectorId: string, accountId: string, firstInSeconds = 900): Promise<void> {
    await this.connectors
      .createQueryBuilder()
      .insert()
      .values({
        connectorId,
        accountId,
        active: true,
        nextRunAt: () => 'now() + make_interval(secs => :first)',
      })
      .orUpdate(['active'], ['connector_id'])
      .setParameter('first', firstInSeconds)
      .updateEntity(false)
      .execute();
  }

  /**
   * Applies a `connector.status_changed` that happened `at`: the connector joins the schedule (`active`, a new
   * one's first sync right away) or leaves it. Status events may arrive out of order (several relays, retries):
   * one older than the last applied changes nothing and gives false, as the registry's applyReportedStatus.
   */
  async applyStatus(connectorId: string, accountId: string, active: boolean, at: Date): Promise<boolean> {
    const result = await this.connectors
      .createQueryBuilder('c')
      .insert()
      .values({ connectorId, accountId, active, statusChangedAt: at, nextRunAt: () => 'now()' })
      .orUpdate(['active', 'status_changed_at'], ['connector_id'], {
        overwriteCondition: {
          where: 'c.status_changed_at IS NULL OR c.status_changed_at <= EXCLUDED.status_changed_at',
        },
      })
      .returning('connector_id')
      .updateEntity(false)
      .execute();
    return rowsOf(result.raw).length > 0;
  }

  /** Records a run request; a redelivered request (same run id) changes nothing. */
  async enqueue(run: NewRun): Promise<boolean> {
    const result = await this.runs
      .createQueryBuilder()
      .insert()
      .values({
        runId: run.runId,
        connectorId: run.connectorId,
        accountId: run.accountId,
        trigger: run.trigger,
        requestedMode: run.requestedMode ?? null,
        status: 'queued',
        correlationId: run.correlationId ?? null,
      })
      .orIgnore()
      .returning('run_id')
      .updateEntity(false)
      .execute();
    return rowsOf(result.raw).length > 0;
  }

  async connector(connectorId: string): Promise<SyncConnector | undefined> {
    const row = await this.connectors.findOneBy({ connectorId });
    return row ? toConnector(row) : undefined;
  }

  /** Takes (or keeps) the connector's lease; false when another process holds a live one. */
  async tryLease(connectorId: string, owner: string, ttlMs: number): Promise<boolean> {
    const result = await this.connectors
      .createQueryBuilder()
      .update()
      .set({ leaseOwner: owner, leaseUntil: () => LEASE_UNTIL })
      .where({ connectorId })
      .andWhere('(lease_until IS NULL OR lease_until < clock_timestamp() OR lease_owner = :owner)', { owner })
      .setParameter('ttlSeconds', ttlMs / 1000)
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Extends a lease this process still holds (not lapsed); false when it is gone. */
  async renewLease(connectorId: string, owner: string, ttlMs: number): Promise<boolean> {
    const result = await this.connectors
      .createQueryBuilder()
      .update()
      .set({ leaseUntil: () => LEASE_UNTIL })
      .where({ connectorId })
      .andWhere('lease_owner = :owner AND lease_until >= clock_timestamp()', { owner })
      .setParameter('ttlSeconds', ttlMs / 1000)
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async releaseLease(connectorId: string, owner: string): Promise<void> {
    await this.connectors.update({ connectorId, leaseOwner: owner }, { leaseOwner: null, leaseUntil: null });
  }

  /** The oldest open run of a connector: the only one that may execute. */
  async headRun(connectorId: string): Promise<SyncRun | undefined> {
    const row = await this.runs.findOne({
      where: { connectorId, status: In(OPEN) },
      order: { createdAt: 'ASC', runId: 'ASC' },
    });
    return row ? toRun(row) : undefined;
  }

  async run(runId: string): Promise<SyncRun | undefined> {
    const row = await this.runs.findOneBy({ runId });
    return row ? toRun(row) : undefined;
  }

  /** Marks a run running; its mode and `since` are fixed the first time, so a resumed run lists the same set. */
  async start(
    runId: string,
    owner: string,
    ttlMs: number,
    decided: { mode: RunMode; since?: Date },
  ): Promise<SyncRun> {
    return this.inLease(runId, owner, ttlMs, async (m) => {
      const runs = m.getRepository(SyncRunEntity);
      const result = await runs
        .createQueryBuilder()
        .update()
        .set({
          status: 'running',
          resumeAt: null,
          mode: () => 'coalesce(mode, :mode)',
          since: () => 'CASE WHEN mode IS NULL THEN CAST(:since AS timestamptz) ELSE since END',
          startedAt: () => 'coalesce(started_at, clock_timestamp())',
        })
        .where({ runId })
        .setParameters({ mode: decided.mode, since: decided.since ?? null })
        .returning('*')
        .updateEntity(false)
        .execute();
      return toRun(onlyRow(entitiesOf(runs, result.raw), runId));
    });
  }

  /** One step of a run in one transaction with the lease check: its effects land only if we still hold it. */
  async inLease<T>(
    runId: string,
    owner: string,
    ttlMs: number,
    work: (manager: EntityManager) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction(async (m) => {
      const held = await m
        .getRepository(SyncConnectorEntity)
        .createQueryBuilder()
        .update()
        .set({ leaseUntil: () => LEASE_UNTIL })
        .where('connector_id = (SELECT r.connector_id FROM sync_run r WHERE r.run_id = :runId)', { runId })
        .andWhere('lease_owner = :owner AND lease_until >= clock_timestamp()', { owner })
        .setParameter('ttlSeconds', ttlMs / 1000)
        .execute();
      if (!held.affected) throw new RunLeaseLostError(runId);
      return work(m);
    });
  }

  /** Adds progress and moves the cursor (inside `inLease`). */
  async advance(
    m: EntityManager,
    runId: string,
    delta: RunDelta,
    cursor?: { after?: number; phase?: RunPhase },
  ): Promise<void> {
    const warnings = delta.warnings ?? [];
    await m
      .getRepository(SyncRunEntity)
      .createQueryBuilder()
      .update()
      .set({
        fetched: () => 'fetched + :fetched',
        upserted: () => 'upserted + :upserted',
        unchanged: () => 'unchanged + :unchanged',
        closed: () => 'closed + :closed',
        apiCalls: () => 'api_calls + :apiCalls',
        readRecords: () => 'read_records + :read',
        attempts: 0,
        ...(cursor?.after !== undefined ? { afterPosition: cursor.after } : {}),
        ...(cursor?.phase !== undefined ? { phase: cursor.phase } : {}),
        ...(warnings.length > 0 ? { warnings: () => WARNINGS_ADDED } : {}),
      })
      .where({ runId })
      .setParameters({
        fetched: delta.fetched ?? 0,
        upserted: delta.upserted ?? 0,
        unchanged: delta.unchanged ?? 0,
        closed: delta.closed ?? 0,
        apiCalls: delta.apiCalls ?? 0,
        read: delta.read ?? 0,
        warnings: JSON.stringify(warnings),
      })
      .execute();
  }

  /** Parks a run until `resumeAt` (with the lease check); the connector stays reserved for it (the head run). */
  async pause(
    runId: string,
    lease: { owner: string; ttlMs: number },
    parked: { resumeAt: Date; attempts: number; error: string; apiCalls: number },
  ): Promise<void> {
    await this.inLease(runId, lease.owner, lease.ttlMs, (m) =>
      m
        .getRepository(SyncRunEntity)
        .createQueryBuilder()
        .update()
        .set({
          status: 'paused',
          resumeAt: parked.resumeAt,
          attempts: parked.attempts,
          error: parked.error,
          apiCalls: () => 'api_calls + :apiCalls',
        })
        .where({ runId, status: In(OPEN) })
        .setParameter('apiCalls', parked.apiCalls)
        .execute(),
    );
  }

  /**
   * Ends a run with the lease check; a success also moves the connector's schedule and its last-success marks.
   * `announce` runs before the commit, so a process that lost its lease announces nothing.
   */
  async finish(
    run: SyncRun,
    lease: { owner: string; ttlMs: number },
    status: Extract<SyncRunStatus, 'succeeded' | 'failed'>,
    error: string | undefined,
    apiCalls: number,
    intervalSeconds: number | undefined,
    announce: () => Promise<void>,
  ): Promise<SyncRun> {
    return this.inLease(run.runId, lease.owner, lease.ttlMs, async (m) => {
      const runs = m.getRepository(SyncRunEntity);
      const result = await runs
        .createQueryBuilder()
        .update()
        .set({
          status,
          error: error ?? null,
          apiCalls: () => 'api_calls + :apiCalls',
          resumeAt: null,
          finishedAt: () => 'clock_timestamp()',
        })
        .where({ runId: run.runId })
        .setParameter('apiCalls', apiCalls)
        .returning('*')
        .updateEntity(false)
        .execute();
      const startedAt = run.startedAt ?? new Date();
      const succeeded = status === 'succeeded';
      await m
        .getRepository(SyncConnectorEntity)
        .createQueryBuilder()
        .update()
        .set({
          ...(intervalSeconds !== undefined ? { intervalSeconds } : {}),
          // SET sees the row as it was: without a new interval, the one kept.
          nextRunAt: () =>
            `clock_timestamp() + make_interval(secs => ${intervalSeconds !== undefined ? ':interval' : 'interval_seconds'})`,
          ...(succeeded ? { lastSuccessStartedAt: startedAt } : {}),
          ...(succeeded && run.mode === 'full' ? { lastFullStartedAt: startedAt } : {}),
        })
        .where({ connectorId: run.connectorId })
        .setParameter('interval', intervalSeconds ?? null)
        .execute();
      await announce();
      return toRun(onlyRow(entitiesOf(runs, result.raw), run.runId));
    });
  }

  /** The connector is gone from the registry: no more scheduled runs. */
  async deactivate(connectorId: string): Promise<void> {
    await this.connectors.update({ connectorId }, { active: false });
  }

  /**
   * Claims connectors whose scheduled sync is due and that have no open run; each claim moves the due time,
   * so one process claims a given connector (rows another process is claiming are skipped, not waited for).
   */
  async claimDue(limit: number): Promise<Array<{ connectorId: string; accountId: string }>> {
    const openRun = this.db
      .createQueryBuilder()
      .subQuery()
      .select('1')
      .from(SyncRunEntity, 'r')
      .where('r.connector_id = s.connector_id')
      .andWhere('r.status IN (:...open)')
      .getQuery();
    const due = this.db
      .createQueryBuilder()
      .subQuery()
      .select('s.connector_id')
      .from(SyncConnectorEntity, 's')
      .where('s.active')
      .andWhere('s.next_run_at <= clock_timestamp()')
      .andWhere(`NOT EXISTS ${openRun}`)
      .orderBy('s.next_run_at')
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getQuery();
    const result = await this.connectors
      .createQueryBuilder()
      .update()
      .set({ nextRunAt: () => 'clock_timestamp() + make_interval(secs => interval_seconds)' })
      .where(`connector_id IN ${due}`, { open: OPEN })
      .returning(['connectorId', 'accountId'])
      .execute();
    return rowsOf(result.raw).map((row) => ({
      connectorId: textColumn(row, 'connector_id'),
      accountId: textColumn(row, 'account_id'),
    }));
  }

  /** Connectors with a run that may go on now and no live lease. */
  async runnableConnectors(limit: number): Promise<string[]> {
    const rows: unknown = await this.runs
      .createQueryBuilder('r')
      .select('r.connector_id', 'connector_id')
      .distinct(true)
      .innerJoin(SyncConnectorEntity, 'c', 'c.connector_id = r.connector_id')
      .where({ status: In(OPEN) })
      .andWhere('(r.resume_at IS NULL OR r.resume_at <= clock_timestamp())')
      .andWhere('(c.lease_until IS NULL OR c.lease_until < clock_timestamp())')
      .limit(limit)
      .getRawMany();
    return rowsOf(rows).map((row) => textColumn(row, 'connector_id'));
  }
}

function onlyRow(rows: SyncRunEntity[], runId: string): SyncRunEntity {
  if (rows.length !== 1) throw new Error(`run ${runId} not found`);
  return rows[0];
}

function toConnector(row: SyncConnectorEntity): SyncConnector {
  return {
    connectorId: row.connectorId,
    accountId: row.accountId,
    lastSuccessStartedAt: row.lastSuccessStartedAt ?? undefined,
    lastFullStartedAt: row.lastFullStartedAt ?? undefined,
  };
}

function toRun(row: SyncRunEntity): SyncRun {
  return {
    runId: row.runId,
    connectorId: row.connectorId,
    accountId: row.accountId,
    trigger: row.trigger,
    requestedMode: row.requestedMode ?? undefined,
    mode: row.mode ?? undefined,
    since: row.since ?? undefined,
    status: row.status,
    phase: row.phase,
    after: row.afterPosition,
    counts: { fetched: row.fetched, upserted: row.upserted, unchanged: row.unchanged, closed: row.closed },
    read: row.readRecords,
    warnings: row.warnings,
    apiCalls: row.apiCalls,
    attempts: row.attempts,
    resumeAt: row.resumeAt ?? undefined,
    correlationId: row.correlationId ?? undefined,
    createdAt: row.createdAt,
    startedAt: row.startedAt ?? undefined,
  };
}
