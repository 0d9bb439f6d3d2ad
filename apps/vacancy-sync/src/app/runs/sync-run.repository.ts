import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager, In, type Repository } from 'typeorm';
import type { RunMode, RunWarningDto } from '@connector/contracts';
import {
  booleanColumn,
  dateColumn,
  entitiesOf,
  numberColumn,
  rowsOf,
  type SqlRow,
  textColumn,
} from '@connector/persistence';
import { RunLeaseLostError } from './run-lease-lost.error';
import { type DueConnector, nextSlot, pickDue } from './run-schedule';
import type { RunPhase, RunTrigger, SyncConnector, SyncRun, SyncRunStatus } from './sync-run';
import { SyncConnectorEntity } from './sync-connector.entity';
import { SyncRunEntity } from './sync-run.entity';
import {
  APPLY_STATUS_SQL,
  CLAIM_SQL,
  DUE_CANDIDATES_SQL,
  DUE_COUNT_SQL,
  LOCK_SYSTEMS_SQL,
  RUNNABLE_SQL,
  RUNNING_PER_SYSTEM_SQL,
  SCHEDULE_FOR_UPDATE_SQL,
} from './sync-schedule.sql';

const OPEN: SyncRunStatus[] = ['queued', 'running', 'paused'];

/** Due connectors one claim looks at; a larger backlog is claimed over the scheduler's next rounds. */
const MAX_CANDIDATES = 500;

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
  async applyStatus(
    connectorId: string,
    accountId: string,
    active: boolean,
    at: Date,
    systemKey?: string,
  ): Promise<boolean> {
    const params = [connectorId, accountId, active, at, systemKey ?? null];
    return rowsOf(await this.db.query(APPLY_STATUS_SQL, params)).length > 0;
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
   * `announce` (told when the next scheduled run is due) runs before the commit, so a process that lost its
   * lease announces nothing.
   */
  async finish(
    run: SyncRun,
    lease: { owner: string; ttlMs: number },
    status: Extract<SyncRunStatus, 'succeeded' | 'failed'>,
    error: string | undefined,
    apiCalls: number,
    intervalSeconds: number | undefined,
    announce: (nextRunAt: Date | undefined) => Promise<void>,
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
      const schedule = await this.scheduleAfterRun(m, run.connectorId, intervalSeconds);
      const changes: Partial<SyncConnectorEntity> = {
        ...schedule.changes,
        ...(succeeded ? { lastSuccessStartedAt: startedAt } : {}),
        ...(succeeded && run.mode === 'full' ? { lastFullStartedAt: startedAt } : {}),
      };
      if (Object.keys(changes).length > 0) {
        await m.getRepository(SyncConnectorEntity).update({ connectorId: run.connectorId }, changes);
      }
      await announce(schedule.nextRunAt);
      return toRun(onlyRow(entitiesOf(runs, result.raw), run.runId));
    });
  }

  /** The connector is gone from the registry: no more scheduled runs. */
  async deactivate(connectorId: string): Promise<void> {
    await this.connectors.update({ connectorId }, { active: false });
  }

  /**
   * A connector's schedule after a run: a new interval (the connector's options changed) takes effect from
   * its slot at least a tenth of an interval from now; slots missed while the run went on (a long run, a run parked
   * for budget) are skipped, not started one after another. Gives the changes and the next due time.
   */
  private async scheduleAfterRun(
    m: EntityManager,
    connectorId: string,
    intervalSeconds: number | undefined,
  ): Promise<{ changes: Partial<SyncConnectorEntity>; nextRunAt?: Date }> {
    const [row] = rowsOf(await m.query(SCHEDULE_FOR_UPDATE_SQL, [connectorId]));
    if (!row) return { changes: {} };
    const kept = numberColumn(row, 'interval_seconds');
    const now = dateColumn(row, 'now');
    if (intervalSeconds !== undefined && intervalSeconds !== kept) {
      const nextRunAt = nextSlot({ connectorId, intervalSeconds, scheduledAt: now, now });
      return { changes: { intervalSeconds, nextRunAt }, nextRunAt };
    }
    const scheduledAt = dateColumn(row, 'next_run_at');
    if (scheduledAt > now) return { changes: {}, nextRunAt: scheduledAt };
    const nextRunAt = nextSlot({ connectorId, intervalSeconds: kept, scheduledAt, now });
    return { changes: { nextRunAt }, nextRunAt };
  }

  /** The customer system a connector's calls go to, learnt when its run starts (caps runs per system). */
  async learnSystem(connectorId: string, systemKey: string): Promise<void> {
    await this.connectors
      .createQueryBuilder()
      .update()
      .set({ systemKey })
      .where({ connectorId })
      .andWhere('system_key IS DISTINCT FROM :systemKey', { systemKey })
      .execute();
  }

  /**
   * Claims up to `limit` due connectors for `owner`, first syncs ahead of the others, at most `perSystem` runs
   * at once on one customer system: each gets its lease (held by `owner`, so the caller drives it at once), a
   * scheduled run and its next scheduled time, in one transaction. Rows another process is claiming are
   * skipped, so processes share the schedule without running a connector twice.
   */
  async claimDue(claim: {
    limit: number;
    owner: string;
    ttlMs: number;
    perSystem: number;
  }): Promise<ClaimedRun[]> {
    if (claim.limit <= 0) return [];
    return this.db.transaction(async (m) => {
      // Twice the slots (room to pass over connectors whose system is at its cap), at most MAX_CANDIDATES a
      // round: each candidate's system takes an advisory lock, and Postgres's lock table is shared and finite.
      const wanted = Math.min(claim.limit * 2, MAX_CANDIDATES);
      const first = rowsOf(await m.query(DUE_CANDIDATES_SQL, [wanted, true]));
      const rest =
        first.length < wanted
          ? rowsOf(await m.query(DUE_CANDIDATES_SQL, [wanted - first.length, false]))
          : [];
      const rows = new Map([...first, ...rest].map((row) => [textColumn(row, 'connector_id'), row]));
      if (rows.size === 0) return [];
      const candidates = [...rows.values()].map(toDueConnector);
      const systems = [...new Set(candidates.flatMap((c) => (c.systemKey ? [c.systemKey] : [])))];
      if (systems.length > 0) await m.query(LOCK_SYSTEMS_SQL, [systems]);
      const busy = new Map(
        systems.length === 0
          ? []
          : rowsOf(await m.query(RUNNING_PER_SYSTEM_SQL, [systems])).map(
              (row) => [textColumn(row, 'system_key'), numberColumn(row, 'running')] as const,
            ),
      );
      const picked = pickDue(candidates, { free: claim.limit, perSystem: claim.perSystem, busy });
      if (picked.length === 0) return [];
      const claimed = picked.map((due): ClaimedRun => {
        const row = rows.get(due.connectorId) as SqlRow;
        const now = dateColumn(row, 'now');
        return {
          runId: randomUUID(),
          connectorId: due.connectorId,
          accountId: textColumn(row, 'account_id'),
          scheduledAt: due.nextRunAt,
          startedAt: now,
          nextRunAt: nextSlot({
            connectorId: due.connectorId,
            intervalSeconds: numberColumn(row, 'interval_seconds'),
            scheduledAt: due.nextRunAt,
            now,
          }),
          intervalSeconds: numberColumn(row, 'interval_seconds'),
        };
      });
      await m.query(CLAIM_SQL, [
        claimed.map((c) => c.connectorId),
        claim.owner,
        claim.ttlMs / 1000,
        claimed.map((c) => c.nextRunAt),
        claimed.map((c) => c.runId),
        claimed.map((c) => c.accountId),
        claimed.map((c) => c.scheduledAt),
      ]);
      return claimed;
    });
  }

  /** Connectors whose head run may go on now and that no process holds: asked-for runs first. */
  async runnableConnectors(limit: number): Promise<string[]> {
    if (limit <= 0) return [];
    return rowsOf(await this.db.query(RUNNABLE_SQL, [limit])).map((row) => textColumn(row, 'connector_id'));
  }

  /** Due connectors no process has started yet, fleet-wide. */
  async dueCount(): Promise<number> {
    const [row] = rowsOf(await this.db.query(DUE_COUNT_SQL));
    return row ? numberColumn(row, 'due') : 0;
  }
}

/** A scheduled run this process claimed: its connector's lease is held by the claiming owner. */
export interface ClaimedRun {
  runId: string;
  connectorId: string;
  accountId: string;
  /** When it was due: `startedAt` minus this is the scheduler's lag. */
  scheduledAt: Date;
  startedAt: Date;
  nextRunAt: Date;
  intervalSeconds: number;
}

function toDueConnector(row: SqlRow): DueConnector {
  const systemKey = row['system_key'];
  return {
    connectorId: textColumn(row, 'connector_id'),
    systemKey: typeof systemKey === 'string' ? systemKey : null,
    firstSync: booleanColumn(row, 'first_sync'),
    nextRunAt: dateColumn(row, 'next_run_at'),
  };
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
