import { Logger } from '@nestjs/common';

/** Anything that runs SQL: a TypeORM DataSource or a pg Pool. */
export interface RetentionDatabase {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** Rows of one table that have been kept long enough. Table and condition are code, never input. */
export interface RetentionRule {
  /** What goes, for the logs. */
  name: string;
  table: string;
  /** The rows that may go; `$1` is the cutoff (now minus `keepDays`) when `keepDays` is set. */
  where: string;
  keepDays?: number;
}

/** Rows deleted per statement: short transactions, however much has piled up. */
export const RETENTION_BATCH = 1_000;

const DAY_MS = 86_400_000;

export function cutoffOf(now: Date, keepDays: number): Date {
  return new Date(now.getTime() - keepDays * DAY_MS);
}

/** A table's rows of connectors deleted more than `keepDays` ago (as `deleted_connector` records them). */
export function deletedConnectorRetention(table: string, keepDays: number): RetentionRule {
  return {
    name: `${table} of connectors deleted more than ${keepDays} days ago`,
    table,
    where: `"connector_id" IN (SELECT "connector_id" FROM "deleted_connector" WHERE "deleted_at" < $1)`,
    keepDays,
  };
}

/**
 * Deletes what `rule` lets go, batch after batch, each batch one statement over rows no one else is deleting
 * (SKIP LOCKED): several replicas running it at once share the work instead of waiting for each other.
 */
export async function purge(
  db: RetentionDatabase,
  rule: RetentionRule,
  now: Date,
  batch = RETENTION_BATCH,
): Promise<number> {
  const params = rule.keepDays === undefined ? [] : [cutoffOf(now, rule.keepDays)];
  let total = 0;
  for (;;) {
    const deleted = rowsOf(
      await db.query(
        `DELETE FROM "${rule.table}" WHERE ctid = ANY(ARRAY(
           SELECT ctid FROM "${rule.table}" WHERE (${rule.where}) LIMIT ${batch} FOR UPDATE SKIP LOCKED))
         RETURNING 1 AS "gone"`,
        params,
      ),
    ).length;
    total += deleted;
    if (deleted < batch) return total;
  }
}

/** Runs every rule, in order (a table others refer to comes last), now and then every `intervalMs`. */
export class RetentionJob {
  private readonly logger = new Logger(RetentionJob.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly db: RetentionDatabase,
    private readonly rules: readonly RetentionRule[],
  ) {}

  /** Rows deleted per rule name. */
  async runOnce(now = new Date()): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    for (const rule of this.rules) {
      deleted[rule.name] = await purge(this.db, rule, now);
      if (deleted[rule.name] > 0) this.logger.log(`retention: ${deleted[rule.name]} ${rule.name} deleted`);
    }
    return deleted;
  }

  start(intervalMs: number, firstInMs = Math.min(intervalMs, 60_000)): void {
    const next = (inMs: number) => {
      this.timer = setTimeout(() => {
        this.running = this.runOnce()
          .catch((error: unknown) => this.logger.warn(`retention run failed: ${(error as Error).message}`))
          .finally(() => {
            this.running = undefined;
            if (this.timer) next(intervalMs);
          });
      }, inMs);
      this.timer.unref();
    };
    next(firstInMs);
  }

  /** Stops the schedule and waits for a run under way. */
  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }
}

/** TypeORM answers DELETE … RETURNING with [rows, affected]; pg with `{ rows }`. */
function rowsOf(result: unknown): unknown[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0])) return result[0];
  if (Array.isArray(result)) return result;
  return (result as { rows?: unknown[] }).rows ?? [];
}
