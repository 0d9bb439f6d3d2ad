import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { RunMode, RunWarningDto } from '@connector/contracts';
import { preparedStatements, type SqlQueryable, type StatementRow } from '@connector/persistence';
import { RunLeaseLostError } from './run-lease-lost.error';
import { type DueConnector, nextSlot, pickDue } from './run-schedule';
import type { RunPhase, RunTrigger, SyncConnector, SyncRun, SyncRunStatus } from './sync-run';
import {
  COMMIT_STEP,
  DEACTIVATE,
  END,
  END_SCHEDULE,
  ENQUEUE,
  HEAD_RUN,
  lastSuccessesOf,
  LEARN_SYSTEM,
  PAUSE,
  REGISTER_CONNECTOR,
  RELEASE_LEASE,
  RENEW_LEASE,
  RUN,
  runOf,
  START,
  TRY_LEASE,
} from './sync-run.sql';
import {
  APPLY_OPTIONS,
  APPLY_STATUS,
  CLAIM,
  DUE_CANDIDATES,
  DUE_COUNT,
  LOCK_ACCOUNTS,
  LOCK_SYSTEMS,
  RUNNABLE,
  RUNNING_PER_ACCOUNT,
  RUNNING_PER_SYSTEM,
  type OptionsValues,
} from './sync-schedule.sql';

/** Due connectors one claim looks at; a larger backlog is claimed over the scheduler's next rounds. */
const MAX_CANDIDATES = 500;

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

/** What one step of a run commits: its vacancies' marks, its progress and its cursor. */
export interface RunStep {
  /** Live vacancies the step published or found unchanged: marked live and seen by the run. */
  seen?: Array<{ externalId: string; contentHash: string }>;
  /** The last day each seen vacancy is advertised (absent: open-ended). */
  liveUntil?: ReadonlyMap<string, string>;
  /** Vacancies the step closed. */
  closed?: string[];
  delta: RunDelta;
  cursor?: { after?: number; phase?: RunPhase };
}

/** The lease a run's writes check: the process holding the connector, and how long a renewal lasts. */
export interface RunLease {
  owner: string;
  ttlMs: number;
}

/** A connector's head run, with the connector's last successes (what deciding its mode needs). */
export type HeadRun = SyncRun & Pick<SyncConnector, 'lastSuccessStartedAt' | 'lastFullStartedAt'>;

/** A run ended: `leaseKept` when the connector has another open run (the lease stays for it), else given back. */
export interface EndedRun {
  run: SyncRun;
  leaseKept: boolean;
}

/**
 * `sync_connector` and `sync_run`: the schedule, the per-connector run lease (one row per connector, taken by
 * a conditional UPDATE, so however many processes run, one holds a connector at a time) and runs' cursors.
 * A run's statements are one round trip each, prepared (sync-run.sql.ts); the scheduler's are in
 * sync-schedule.sql.ts.
 */
@Injectable()
export class SyncRunRepository {
  private readonly sql: SqlQueryable;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.sql = preparedStatements(db);
  }

  /** Makes the connector known to the scheduler, its first scheduled sync `firstInSeconds` from now. */
  async registerConnector(connectorId: string, accountId: string, firstInSeconds = 900): Promise<void> {
    await REGISTER_CONNECTOR.rows(this.sql, { connectorId, accountId, firstInSeconds });
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
    const values = { connectorId, accountId, active, at, systemKey: systemKey ?? null };
    return (await APPLY_STATUS.rows(this.db, values)).length > 0;
  }

  /** Records a run request; a redelivered request (same run id) changes nothing. */
  async enqueue(run: NewRun): Promise<boolean> {
    const inserted = await ENQUEUE.rows(this.sql, {
      runId: run.runId,
      connectorId: run.connectorId,
      accountId: run.accountId,
      trigger: run.trigger,
      requestedMode: run.requestedMode ?? null,
      correlationId: run.correlationId ?? null,
    });
    return inserted.length > 0;
  }

  /** Takes (or keeps) the connector's lease; false when another process holds a live one. */
  async tryLease(connectorId: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await TRY_LEASE.rows(this.sql, { connectorId, owner, leaseSeconds: ttlMs / 1000 })).length > 0;
  }

  /** Extends a lease this process still holds (not lapsed); false when it is gone. */
  async renewLease(connectorId: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await RENEW_LEASE.rows(this.sql, { connectorId, owner, leaseSeconds: ttlMs / 1000 })).length > 0;
  }

  async releaseLease(connectorId: string, owner: string): Promise<void> {
    await RELEASE_LEASE.rows(this.sql, { connectorId, owner });
  }

  /** The oldest open run of a connector (the only one that may execute), with the connector's last successes. */
  async headRun(connectorId: string): Promise<HeadRun | undefined> {
    const [row] = await HEAD_RUN.rows(this.sql, { connectorId });
    return row ? { ...runOf(row), ...lastSuccessesOf(row) } : undefined;
  }

  async run(runId: string): Promise<SyncRun | undefined> {
    const [row] = await RUN.rows(this.sql, { runId });
    return row ? runOf(row) : undefined;
  }

  /** Marks a run running; its mode and `since` are fixed the first time, so a resumed run lists the same set. */
  async start(
    runId: string,
    owner: string,
    ttlMs: number,
    decided: { mode: RunMode; since?: Date },
  ): Promise<SyncRun> {
    const [row] = await START.rows(this.sql, {
      runId,
      owner,
      leaseSeconds: ttlMs / 1000,
      mode: decided.mode,
      since: decided.since ?? null,
    });
    if (!row) throw new RunLeaseLostError(runId);
    return runOf(row);
  }

  /**
   * Commits one step of a run in one statement with the lease check: its effects land only if this process
   * still holds the connector (else RunLeaseLostError, nothing written).
   */
  async commitStep(runId: string, lease: RunLease, step: RunStep): Promise<void> {
    const { seen = [], liveUntil = new Map<string, string>(), closed = [], delta, cursor } = step;
    const [row] = await COMMIT_STEP.rows(this.sql, {
      runId,
      owner: lease.owner,
      leaseSeconds: lease.ttlMs / 1000,
      seenIds: seen.map((v) => v.externalId),
      seenHashes: seen.map((v) => v.contentHash),
      seenLiveUntil: seen.map((v) => liveUntil.get(v.externalId) ?? null),
      closedIds: closed,
      fetched: delta.fetched ?? 0,
      upserted: delta.upserted ?? 0,
      unchanged: delta.unchanged ?? 0,
      closed: delta.closed ?? 0,
      apiCalls: delta.apiCalls ?? 0,
      read: delta.read ?? 0,
      after: cursor?.after ?? null,
      phase: cursor?.phase ?? null,
      warnings: JSON.stringify(delta.warnings ?? []),
    });
    if (!row?.held) throw new RunLeaseLostError(runId);
  }

  /** Parks a run until `resumeAt` (with the lease check); the connector stays reserved for it (the head run). */
  async pause(
    runId: string,
    lease: RunLease,
    parked: { resumeAt: Date; attempts: number; error: string; apiCalls: number },
  ): Promise<void> {
    const [row] = await PAUSE.rows(this.sql, {
      runId,
      owner: lease.owner,
      leaseSeconds: lease.ttlMs / 1000,
      ...parked,
    });
    if (!row?.held) throw new RunLeaseLostError(runId);
  }

  /**
   * Ends a run with the lease check; a success also moves the connector's schedule and its last-success marks.
   * `announce` (told when the next scheduled run is due) runs before the end is written, so a process that
   * lost its lease announces nothing, and an announcement that fails leaves the run open. The lease is given
   * back with the end unless another run of the connector is open.
   */
  async finish(
    run: SyncRun,
    lease: RunLease,
    status: Extract<SyncRunStatus, 'succeeded' | 'failed'>,
    error: string | undefined,
    apiCalls: number,
    schedule: RunSchedule | undefined,
    announce: (nextRunAt: Date | undefined) => Promise<void>,
  ): Promise<EndedRun> {
    const [current] = await END_SCHEDULE.rows(this.sql, {
      connectorId: run.connectorId,
      owner: lease.owner,
      leaseSeconds: lease.ttlMs / 1000,
    });
    if (!current) throw new RunLeaseLostError(run.runId);
    // Options changed since the run read them (connector.changed set the schedule): the run keeps to it.
    const stale = schedule?.optionsVersion !== undefined && current.options_version > schedule.optionsVersion;
    const next = scheduleAfterRun(current, run.connectorId, stale ? undefined : schedule?.intervalSeconds);
    await announce(next.nextRunAt);
    const succeeded = status === 'succeeded';
    const startedAt = run.startedAt ?? new Date();
    const [row] = await END.rows(this.sql, {
      connectorId: run.connectorId,
      owner: lease.owner,
      runId: run.runId,
      status,
      error: error ?? null,
      apiCalls,
      nextRunAt: next.moved ? next.nextRunAt : null,
      intervalSeconds: next.intervalSeconds ?? null,
      lastSuccessStartedAt: succeeded ? startedAt : null,
      lastFullStartedAt: succeeded && run.mode === 'full' ? startedAt : null,
    });
    if (!row) throw new RunLeaseLostError(run.runId);
    return { run: runOf(row), leaseKept: row.more };
  }

  /**
   * The connector's options as of `version` set its run interval and its event feed's poll period at once (a
   * changed period brings the next run or read forward to the new period's slot). False: a newer version was
   * applied already, or vacancy-sync does not schedule the connector.
   */
  async applyOptions(values: OptionsValues): Promise<boolean> {
    const [row] = await APPLY_OPTIONS.rows(this.sql, values);
    return row?.applied === true;
  }

  /** The connector is gone from the registry: no more scheduled runs. */
  async deactivate(connectorId: string): Promise<void> {
    await DEACTIVATE.rows(this.sql, { connectorId });
  }

  /** The customer system a connector's calls go to, learnt when its run starts (caps runs per system). */
  async learnSystem(connectorId: string, systemKey: string): Promise<void> {
    await LEARN_SYSTEM.rows(this.sql, { connectorId, systemKey });
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
    /** Runs of one account at once (MAX_CONCURRENT_RUNS_PER_ACCOUNT). */
    perAccount: number;
  }): Promise<ClaimedRun[]> {
    if (claim.limit <= 0) return [];
    return this.db.transaction(async (m) => {
      // Twice the slots (room to pass over connectors whose system is at its cap), at most MAX_CANDIDATES a
      // round: each candidate's system takes an advisory lock, and Postgres's lock table is shared and finite.
      const wanted = Math.min(claim.limit * 2, MAX_CANDIDATES);
      const first = await DUE_CANDIDATES.rows(m, { limit: wanted, firstSyncsOnly: true });
      const rest =
        first.length < wanted
          ? await DUE_CANDIDATES.rows(m, { limit: wanted - first.length, firstSyncsOnly: false })
          : [];
      const rows = new Map([...first, ...rest].map((row) => [row.connector_id, row]));
      if (rows.size === 0) return [];
      const candidates = [...rows.values()].map(toDueConnector);
      const systems = [...new Set(candidates.flatMap((c) => (c.systemKey ? [c.systemKey] : [])))];
      if (systems.length > 0) await LOCK_SYSTEMS.rows(m, { systems });
      const busy = new Map(
        systems.length === 0
          ? []
          : (await RUNNING_PER_SYSTEM.rows(m, { systems })).map(
              (row) => [row.system_key, row.running] as const,
            ),
      );
      const accounts = [...new Set(candidates.map((c) => c.accountId))];
      await LOCK_ACCOUNTS.rows(m, { accounts });
      const busyAccounts = new Map(
        (await RUNNING_PER_ACCOUNT.rows(m, { accounts })).map(
          (row) => [row.account_id, row.running] as const,
        ),
      );
      const picked = pickDue(candidates, {
        free: claim.limit,
        perSystem: claim.perSystem,
        busy,
        perAccount: claim.perAccount,
        busyAccounts,
      });
      if (picked.length === 0) return [];
      // Each picked connector is one of the rows read.
      const claimed = picked.flatMap((due): Array<Omit<ClaimedRun, 'head'>> => {
        const row = rows.get(due.connectorId);
        if (!row) return [];
        const now = row.now;
        const run = {
          runId: randomUUID(),
          connectorId: due.connectorId,
          accountId: row.account_id,
          scheduledAt: due.nextRunAt,
          startedAt: now,
          nextRunAt: nextSlot({
            connectorId: due.connectorId,
            intervalSeconds: row.interval_seconds,
            scheduledAt: due.nextRunAt,
            now,
          }),
          intervalSeconds: row.interval_seconds,
        };
        return [run];
      });
      const runs = await CLAIM.rows(m, {
        connectorIds: claimed.map((c) => c.connectorId),
        owner: claim.owner,
        leaseSeconds: claim.ttlMs / 1000,
        nextRunAts: claimed.map((c) => c.nextRunAt),
        runIds: claimed.map((c) => c.runId),
        accountIds: claimed.map((c) => c.accountId),
        scheduledAts: claimed.map((c) => c.scheduledAt),
      });
      const heads = new Map(runs.map((row) => [row.connector_id, runOf(row)]));
      return claimed.flatMap((c) => {
        const head = heads.get(c.connectorId);
        const row = rows.get(c.connectorId);
        return head && row ? [{ ...c, head: { ...head, ...lastSuccessesOf(row) } }] : [];
      });
    });
  }

  /** Connectors whose head run may go on now and that no process holds: asked-for runs first. */
  async runnableConnectors(limit: number): Promise<string[]> {
    if (limit <= 0) return [];
    return (await RUNNABLE.rows(this.db, { limit })).map((row) => row.connector_id);
  }

  /** Due connectors no process has started yet, fleet-wide. */
  async dueCount(): Promise<number> {
    const [row] = await DUE_COUNT.rows(this.db, {});
    return row?.due ?? 0;
  }
}

/** The schedule a run's options ask for, and the connector version they are of (when the registry says). */
export interface RunSchedule {
  intervalSeconds: number;
  optionsVersion?: number;
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
  /** The scheduled run, its connector's head run (a due connector has no other open run). */
  head: HeadRun;
}

function toDueConnector(row: StatementRow<typeof DUE_CANDIDATES>): DueConnector {
  return {
    connectorId: row.connector_id,
    accountId: row.account_id,
    systemKey: row.system_key,
    firstSync: row.first_sync,
    nextRunAt: row.next_run_at,
  };
}

/**
 * A connector's schedule after a run (`row`: its interval, next run and the time now): a new interval (the
 * connector's options changed) takes effect from its slot at least a tenth of an interval from now; slots
 * missed while the run went on (a long run, a run parked for budget) are skipped, not started one after
 * another. `moved`: the next run changes.
 */
function scheduleAfterRun(
  row: StatementRow<typeof END_SCHEDULE>,
  connectorId: string,
  intervalSeconds: number | undefined,
): { nextRunAt: Date; moved: boolean; intervalSeconds?: number } {
  const kept = row.interval_seconds;
  const now = row.now;
  if (intervalSeconds !== undefined && intervalSeconds !== kept) {
    const nextRunAt = nextSlot({ connectorId, intervalSeconds, scheduledAt: now, now });
    return { nextRunAt, moved: true, intervalSeconds };
  }
  const scheduledAt = row.next_run_at;
  if (scheduledAt > now) return { nextRunAt: scheduledAt, moved: false };
  return { nextRunAt: nextSlot({ connectorId, intervalSeconds: kept, scheduledAt, now }), moved: true };
}
