import { Logger } from '@nestjs/common';
import { type SqlRow, textColumn } from './sql-rows';

/** Anything that runs SQL: a TypeORM DataSource or a pg Pool. */
export interface RetentionDatabase {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** What a retention job lets go: rows past an age, or each owner's history past its limits. */
export type RetentionRule = AgeRetentionRule | HistoryRetentionRule;

/** Rows of one table that have been kept long enough. Table and condition are code, never input. */
export interface AgeRetentionRule {
  /** What goes, for the logs. */
  name: string;
  table: string;
  /** The rows that may go; `$1` is the cutoff (now minus `keepDays`) when `keepDays` is set. */
  where: string;
  keepDays?: number;
}

/**
 * Each owner's history (e.g. a connector's runs) kept to its newest `keepNewest` rows and to `keepDays` days,
 * its newest row always kept whatever its age (the admin page shows the last run). Rows outside `where` (open
 * runs) never go and do not count. Owners are taken a page at a time, and each owner's rows are read newest
 * first through an index on (`ownerColumn`, `timeColumn`): the work follows the owners and what goes, never
 * the size of the table. Table and columns are code, never input.
 */
export interface HistoryRetentionRule {
  name: string;
  table: string;
  /** The table that lists the owners, and its key (e.g. `connector`, `id`). */
  owners: { table: string; key: string };
  /** The column of `table` that names the owner. */
  ownerColumn: string;
  /** The column that orders an owner's rows in time. */
  timeColumn: string;
  /** The rows that may go (e.g. finished runs). */
  where: string;
  keepNewest: number;
  keepDays: number;
  /**
   * What must outlive the rows (e.g. a day's totals the admin page shows): a statement over `gone`, the rows
   * deleted (all their columns), run in the same statement as the delete, so each row counts exactly once.
   */
  fold?: string;
}

/** Owners whose history one statement trims. */
const OWNER_PAGE = 100;

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
  if ('owners' in rule) return trimHistories(db, rule, now, batch);
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

/**
 * Trims every owner's history, a page of owners at a time: one statement finds each owner's rows beyond its
 * newest `keepNewest`, and those older than the cutoff but its newest (both from the owner's index), locks
 * what it may (SKIP LOCKED: replicas share the work, a row being written is left for the next run) and
 * deletes at most `batch` of them; the page is done when a statement comes back short.
 */
export async function trimHistories(
  db: RetentionDatabase,
  rule: HistoryRetentionRule,
  now: Date,
  batch = RETENTION_BATCH,
): Promise<number> {
  const { table, ownerColumn: owner, timeColumn: time } = rule;
  const ownersOf = `SELECT "${rule.owners.key}"::text AS "owner" FROM "${rule.owners.table}"`;
  const order = `ORDER BY "${rule.owners.key}" LIMIT ${OWNER_PAGE}`;
  const own = `"${table}"."${owner}" = o."${rule.owners.key}" AND (${rule.where})`;
  const remove = `DELETE FROM "${table}" WHERE ctid = ANY(ARRAY(
      SELECT ctid FROM "${table}" WHERE ctid = ANY(ARRAY(
        SELECT gone.ctid FROM "${rule.owners.table}" AS o CROSS JOIN LATERAL (
          (SELECT "${table}".ctid FROM "${table}" WHERE ${own}
            ORDER BY "${table}"."${time}" DESC OFFSET ${rule.keepNewest} LIMIT ${batch})
          UNION
          (SELECT "${table}".ctid FROM "${table}" WHERE ${own} AND "${table}"."${time}" < $2
            AND "${table}"."${time}" < (SELECT max(newest."${time}") FROM "${table}" AS newest
              WHERE newest."${owner}" = o."${rule.owners.key}")
            LIMIT ${batch})
        ) AS gone
        WHERE o."${rule.owners.key}" = ANY($1) LIMIT ${batch}))
      FOR UPDATE SKIP LOCKED))`;
  const trim = rule.fold
    ? `WITH gone AS (${remove} RETURNING *), folded AS (${rule.fold}) SELECT 1 AS "gone" FROM gone`
    : `${remove} RETURNING 1 AS "gone"`;
  const cutoff = cutoffOf(now, rule.keepDays);
  let total = 0;
  let after: string | undefined;
  for (;;) {
    const page = rowsOf(
      await db.query(
        after === undefined ? `${ownersOf} ${order}` : `${ownersOf} WHERE "${rule.owners.key}" > $1 ${order}`,
        after === undefined ? [] : [after],
      ),
    ).map((row) => textColumn(row as SqlRow, 'owner'));
    if (page.length === 0) return total;
    for (;;) {
      const deleted = rowsOf(await db.query(trim, [page, cutoff])).length;
      total += deleted;
      if (deleted < batch) break;
    }
    if (page.length < OWNER_PAGE) return total;
    after = page[page.length - 1];
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
