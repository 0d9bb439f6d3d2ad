import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { RunCountsDto, RunMode, RunWarningDto } from '@connector/contracts';
import { RunLeaseLostError } from './run-lease-lost.error';
import type { RunPhase, RunTrigger, SyncConnector, SyncRun, SyncRunStatus } from './sync-run';

import { type Row, rowsOf } from '../common/sql-rows';

const OPEN = `('queued', 'running', 'paused')`;

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
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Makes the connector known to the scheduler, its first scheduled sync `firstInSeconds` from now. */
  async registerConnector(connectorId: string, accountId: string, firstInSeconds = 900): Promise<void> {
    await this.db.query(
      `INSERT INTO sync_connector (connector_id, account_id, next_run_at)
       VALUES ($1, $2, now() + make_interval(secs => $3))
       ON CONFLICT (connector_id) DO UPDATE SET active = true`,
      [connectorId, accountId, firstInSeconds],
    );
  }

  /** Records a run request; a redelivered request (same run id) changes nothing. */
  async enqueue(run: NewRun): Promise<boolean> {
    const rows = rowsOf(
      await this.db.query(
        `INSERT INTO sync_run (run_id, connector_id, account_id, trigger, requested_mode, status, correlation_id)
       VALUES ($1, $2, $3, $4, $5, 'queued', $6)
       ON CONFLICT (run_id) DO NOTHING RETURNING run_id`,
        [
          run.runId,
          run.connectorId,
          run.accountId,
          run.trigger,
          run.requestedMode ?? null,
          run.correlationId ?? null,
        ],
      ),
    );
    return rows.length > 0;
  }

  async connector(connectorId: string): Promise<SyncConnector | undefined> {
    const [row] = rowsOf(
      await this.db.query(`SELECT * FROM sync_connector WHERE connector_id = $1`, [connectorId]),
    );
    return row ? toConnector(row) : undefined;
  }

  /** Takes (or keeps) the connector's lease; false when another process holds a live one. */
  async tryLease(connectorId: string, owner: string, ttlMs: number): Promise<boolean> {
    const rows = rowsOf(
      await this.db.query(
        `UPDATE sync_connector SET lease_owner = $2, lease_until = clock_timestamp() + make_interval(secs => $3::float8 / 1000)
        WHERE connector_id = $1 AND (lease_until IS NULL OR lease_until < clock_timestamp() OR lease_owner = $2)
        RETURNING connector_id`,
        [connectorId, owner, ttlMs],
      ),
    );
    return rows.length > 0;
  }

  async releaseLease(connectorId: string, owner: string): Promise<void> {
    await this.db.query(
      `UPDATE sync_connector SET lease_owner = NULL, lease_until = NULL WHERE connector_id = $1 AND lease_owner = $2`,
      [connectorId, owner],
    );
  }

  /** The oldest open run of a connector: the only one that may execute. */
  async headRun(connectorId: string): Promise<SyncRun | undefined> {
    const [row] = rowsOf(
      await this.db.query(
        `SELECT * FROM sync_run WHERE connector_id = $1 AND status IN ${OPEN} ORDER BY created_at, run_id LIMIT 1`,
        [connectorId],
      ),
    );
    return row ? toRun(row) : undefined;
  }

  async run(runId: string): Promise<SyncRun | undefined> {
    const [row] = rowsOf(await this.db.query(`SELECT * FROM sync_run WHERE run_id = $1`, [runId]));
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
      const [row] = rowsOf(
        await m.query(
          `UPDATE sync_run SET status = 'running', resume_at = NULL,
                mode = coalesce(mode, $2), since = CASE WHEN mode IS NULL THEN $3::timestamptz ELSE since END,
                started_at = coalesce(started_at, clock_timestamp())
          WHERE run_id = $1 RETURNING *`,
          [runId, decided.mode, decided.since ?? null],
        ),
      );
      return toRun(row);
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
      const held = rowsOf(
        await m.query(
          `UPDATE sync_connector c SET lease_until = clock_timestamp() + make_interval(secs => $3::float8 / 1000)
           FROM sync_run r
          WHERE r.run_id = $1 AND c.connector_id = r.connector_id AND c.lease_owner = $2
            AND c.lease_until >= clock_timestamp()
          RETURNING c.connector_id`,
          [runId, owner, ttlMs],
        ),
      );
      if (held.length === 0) throw new RunLeaseLostError(runId);
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
    await m.query(
      `UPDATE sync_run SET fetched = fetched + $2, upserted = upserted + $3, unchanged = unchanged + $4,
              closed = closed + $5, api_calls = api_calls + $6,
              after_position = coalesce($7, after_position), phase = coalesce($8, phase), attempts = 0,
              read_records = read_records + $9,
              warnings = warnings || (SELECT coalesce(jsonb_agg(w), '[]'::jsonb) FROM jsonb_array_elements($10::jsonb) w
                                       WHERE NOT warnings @> jsonb_build_array(w))
        WHERE run_id = $1`,
      [
        runId,
        delta.fetched ?? 0,
        delta.upserted ?? 0,
        delta.unchanged ?? 0,
        delta.closed ?? 0,
        delta.apiCalls ?? 0,
        cursor?.after ?? null,
        cursor?.phase ?? null,
        delta.read ?? 0,
        JSON.stringify(delta.warnings ?? []),
      ],
    );
  }

  /** Parks a run until `resumeAt`; the connector stays reserved for it (it is the head run). */
  async pause(
    runId: string,
    resumeAt: Date,
    attempts: number,
    error: string,
    apiCalls: number,
  ): Promise<void> {
    await this.db.query(
      `UPDATE sync_run SET status = 'paused', resume_at = $2, attempts = $3, error = $4, api_calls = api_calls + $5
        WHERE run_id = $1 AND status IN ${OPEN}`,
      [runId, resumeAt, attempts, error, apiCalls],
    );
  }

  /** Ends a run; a success also moves the connector's schedule and its last-success marks. */
  async finish(
    run: SyncRun,
    status: Extract<SyncRunStatus, 'succeeded' | 'failed'>,
    error: string | undefined,
    apiCalls: number,
    intervalSeconds: number | undefined,
  ): Promise<SyncRun> {
    return this.db.transaction(async (m) => {
      const [row] = rowsOf(
        await m.query(
          `UPDATE sync_run SET status = $2, error = $3, api_calls = api_calls + $4, resume_at = NULL,
                finished_at = clock_timestamp()
          WHERE run_id = $1 RETURNING *`,
          [run.runId, status, error ?? null, apiCalls],
        ),
      );
      await m.query(
        `UPDATE sync_connector SET
            interval_seconds = coalesce($2, interval_seconds),
            next_run_at = clock_timestamp() + make_interval(secs => coalesce($2, interval_seconds)),
            last_success_started_at = CASE WHEN $3 THEN $4 ELSE last_success_started_at END,
            last_full_started_at = CASE WHEN $3 AND $5 THEN $4 ELSE last_full_started_at END
          WHERE connector_id = $1`,
        [
          run.connectorId,
          intervalSeconds ?? null,
          status === 'succeeded',
          run.startedAt ?? new Date(),
          run.mode === 'full',
        ],
      );
      return toRun(row);
    });
  }

  /** The connector is gone from the registry: no more scheduled runs. */
  async deactivate(connectorId: string): Promise<void> {
    await this.db.query(`UPDATE sync_connector SET active = false WHERE connector_id = $1`, [connectorId]);
  }

  /**
   * Claims connectors whose scheduled sync is due and that have no open run; each claim moves the due time,
   * so one process claims a given connector.
   */
  async claimDue(limit: number): Promise<Array<{ connectorId: string; accountId: string }>> {
    const rows = rowsOf(
      await this.db.query(
        `UPDATE sync_connector c SET next_run_at = clock_timestamp() + make_interval(secs => c.interval_seconds)
        WHERE c.connector_id IN (
          SELECT s.connector_id FROM sync_connector s
           WHERE s.active AND s.next_run_at <= clock_timestamp()
             AND NOT EXISTS (SELECT 1 FROM sync_run r WHERE r.connector_id = s.connector_id AND r.status IN ${OPEN})
           ORDER BY s.next_run_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING c.connector_id, c.account_id`,
        [limit],
      ),
    );
    return rows.map((row) => ({ connectorId: String(row.connector_id), accountId: String(row.account_id) }));
  }

  /** Connectors with a run that may go on now and no live lease. */
  async runnableConnectors(limit: number): Promise<string[]> {
    const rows = rowsOf(
      await this.db.query(
        `SELECT DISTINCT r.connector_id FROM sync_run r JOIN sync_connector c ON c.connector_id = r.connector_id
        WHERE r.status IN ${OPEN} AND (r.resume_at IS NULL OR r.resume_at <= clock_timestamp())
          AND (c.lease_until IS NULL OR c.lease_until < clock_timestamp())
        LIMIT $1`,
        [limit],
      ),
    );
    return rows.map((row) => String(row.connector_id));
  }
}

function date(value: unknown): Date | undefined {
  return value === null || value === undefined ? undefined : new Date(value as string | Date);
}

function toConnector(row: Row): SyncConnector {
  return {
    connectorId: String(row.connector_id),
    accountId: String(row.account_id),
    lastSuccessStartedAt: date(row.last_success_started_at),
    lastFullStartedAt: date(row.last_full_started_at),
  };
}

function toRun(row: Row): SyncRun {
  const counts: RunCountsDto = {
    fetched: Number(row.fetched),
    upserted: Number(row.upserted),
    unchanged: Number(row.unchanged),
    closed: Number(row.closed),
  };
  return {
    runId: String(row.run_id),
    connectorId: String(row.connector_id),
    accountId: String(row.account_id),
    trigger: row.trigger as RunTrigger,
    requestedMode: (row.requested_mode as RunMode | null) ?? undefined,
    mode: (row.mode as RunMode | null) ?? undefined,
    since: date(row.since),
    status: row.status as SyncRunStatus,
    phase: row.phase as RunPhase,
    after: Number(row.after_position),
    counts,
    read: Number(row.read_records ?? 0),
    warnings: Array.isArray(row.warnings) ? (row.warnings as RunWarningDto[]) : [],
    apiCalls: Number(row.api_calls),
    attempts: Number(row.attempts),
    resumeAt: date(row.resume_at),
    correlationId: (row.correlation_id as string | null) ?? undefined,
    createdAt: date(row.created_at) ?? new Date(),
    startedAt: date(row.started_at),
  };
}
