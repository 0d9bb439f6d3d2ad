/**
 * The fleet bench's simulated day of retention: a day of run history seeded for every connector in both run
 * tables (vacancy-sync's `sync_run`, the registry's `run`), then the services' own retention job, then the
 * tables again.
 *
 * THE HOOK: `runRetentionJob` is the one place that makes the services delete old runs. Today it starts
 * connector-registry and vacancy-sync with `RETENTION_INTERVAL_MS=1000` (their `RetentionJob` runs its rules
 * one second after start) plus `FLEET_RETENTION_ENV`, and waits until the run tables stop shrinking. When the
 * run-history retention (branch fleet-retention) lands as rules of that job, set its settings through
 * `FLEET_RETENTION_ENV` (e.g. `RUN_HISTORY_DAYS=1 RUN_HISTORY_MAX_PER_CONNECTOR=100`); if it runs on another
 * trigger, call that trigger here instead.
 */
import type { Pool } from 'pg';
import type { ServiceProcess } from '@connector/testing';

export interface RetentionTable {
  table: string;
  rows: number;
  mib: number;
}

export interface RetentionResult {
  /** Runs seeded in each run table. */
  seeded: number;
  before: RetentionTable[];
  after: RetentionTable[];
  /** What the services' retention said it deleted, or that it deleted nothing. */
  note: string;
}

export interface RetentionContext {
  db: Pool;
  /** DATABASE_URL, RABBITMQ_URL, LOG_LEVEL of the row's services. */
  env: Record<string, string>;
  /** What the registry needs besides (its admin keys). */
  registryEnv: Record<string, string>;
  /** FLEET_RETENTION_ENV: the retention's own settings, for both services. */
  retentionEnv: Record<string, string>;
  days: number;
  intervalMinutes: number;
  tables(): Promise<RetentionTable[]>;
  /** Starts a service process the bench stops on a signal or its deadline. */
  start(name: string, env: Record<string, string>): Promise<ServiceProcess>;
}

const COUNTS = `{"fetched":20,"upserted":0,"unchanged":20,"closed":0}`;

/** `days` of finished runs per connector at its interval, ending one interval ago, in both run tables. */
async function seedRunHistory(db: Pool, days: number, intervalMinutes: number): Promise<number> {
  const perConnector = Math.floor((days * 1440) / intervalMinutes);
  const slots = `SELECT now() - make_interval(mins => g * $1) AS t FROM generate_series(1, $2) g`;
  const seeded = await db.query(
    `INSERT INTO "sync_run" ("run_id", "connector_id", "account_id", "trigger", "mode", "status", "fetched",
       "unchanged", "api_calls", "created_at", "started_at", "finished_at")
     SELECT gen_random_uuid()::text, c."connector_id", c."account_id", 'scheduled', 'incremental', 'succeeded',
       20, 20, 1, s.t, s.t, s.t + interval '1 second'
     FROM "sync_connector" c CROSS JOIN LATERAL (${slots}) s`,
    [intervalMinutes, perConnector],
  );
  await db.query(
    `INSERT INTO "run" ("id", "connector_id", "account_id", "status", "mode", "counts", "api_calls", "queued_at",
       "started_at", "finished_at", "updated_at")
     SELECT gen_random_uuid(), c."id", c."account_id", 'succeeded', 'incremental', '${COUNTS}'::jsonb, 1, s.t, s.t,
       s.t + interval '1 second', s.t
     FROM "connector" c CROSS JOIN LATERAL (${slots}) s`,
    [intervalMinutes, perConnector],
  );
  await db.query('VACUUM ANALYZE "sync_run", "run"');
  return seeded.rowCount ?? 0;
}

const runRows = async (db: Pool) =>
  Number(
    (
      await db.query<{ n: string }>(
        'SELECT (SELECT count(*) FROM "sync_run") + (SELECT count(*) FROM "run") AS n',
      )
    ).rows[0].n,
  );

/** THE HOOK (see the file's comment): the services' retention job over the seeded history. */
async function runRetentionJob(context: RetentionContext): Promise<string> {
  const env = { ...context.env, RETENTION_INTERVAL_MS: '1000', ...context.retentionEnv };
  const processes: ServiceProcess[] = [];
  try {
    processes.push(await context.start('connector-registry', { ...env, ...context.registryEnv }));
    processes.push(await context.start('vacancy-sync', env));
    // The job runs a second after start, batch after batch; done when the run tables stop shrinking (the
    // scheduler adds a few runs meanwhile). At most 10 minutes.
    const started = Date.now();
    let previous = await runRows(context.db);
    let steady = 0;
    while (Date.now() - started < 10 * 60_000 && (steady < 3 || Date.now() - started < 10_000)) {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const now = await runRows(context.db);
      steady = now >= previous ? steady + 1 : 0;
      previous = now;
    }
    const said = processes.flatMap((p) => p.output.filter((line) => line.includes('retention:')));
    return said.length
      ? said.map((line) => /retention: [^"]*/.exec(line)?.[0] ?? line).join('; ')
      : 'the services logged no retention line (LOG_LEVEL=warn): the table below says what they deleted';
  } finally {
    await Promise.all(processes.map((p) => p.stop()));
  }
}

export async function simulatedDayOfRetention(context: RetentionContext): Promise<RetentionResult> {
  const seeded = await seedRunHistory(context.db, context.days, context.intervalMinutes);
  const before = await context.tables();
  const note = await runRetentionJob(context);
  await context.db.query('VACUUM ANALYZE "sync_run", "run"');
  return { seeded, before, after: await context.tables(), note };
}
