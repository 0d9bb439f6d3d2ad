import { randomUUID } from 'node:crypto';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Anything that runs SQL: a TypeORM DataSource or a pg Pool. */
export interface LeaseDatabase {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** Someone else held the key's lease for longer than the caller would wait. */
export class LockTimeoutError extends Error {
  constructor(
    readonly key: string,
    waitedMs: number,
  ) {
    super(`lock on ${key} still held by another worker after ${waitedMs} ms`);
    this.name = 'LockTimeoutError';
  }
}

export interface KeyedLeasesOptions {
  /** Keeps services' keys apart. */
  namespace: string;
  /** A lease lapses this long after its last renewal, when its holder died. */
  ttlMs?: number;
}

/**
 * One worker at a time per key, across processes, without holding a database connection while the work
 * runs (the work calls an ATS): a row in `keyed_lease` taken with one atomic upsert, renewed while the work
 * runs, deleted when it ends, and taken over by another worker only once it has lapsed (its holder died).
 */
export class KeyedLeases {
  private readonly ttlMs: number;

  constructor(
    private readonly db: LeaseDatabase,
    private readonly options: KeyedLeasesOptions,
  ) {
    this.ttlMs = options.ttlMs ?? 60_000;
  }

  /** Runs `work` holding the lease of `key`; LockTimeoutError when it stays taken for `waitMs`. */
  async withLock<T>(key: string, work: () => Promise<T>, waitMs: number): Promise<T> {
    const owner = randomUUID();
    await this.acquire(key, owner, waitMs);
    // Renewed well before it lapses, so a long ATS call never lets a second worker in.
    const renewal = setInterval(() => void this.renew(key, owner).catch(() => undefined), this.ttlMs / 3);
    renewal.unref();
    try {
      return await work();
    } finally {
      clearInterval(renewal);
      await this.db
        .query(`DELETE FROM keyed_lease WHERE namespace = $1 AND key = $2 AND owner = $3`, [
          this.options.namespace,
          key,
          owner,
        ])
        .catch(() => undefined); // not released: it lapses after ttlMs
    }
  }

  private async acquire(key: string, owner: string, waitMs: number): Promise<void> {
    const started = Date.now();
    for (let pause = 10; ; pause = Math.min(pause * 2, 200)) {
      const rows = await this.db.query(
        `INSERT INTO keyed_lease (namespace, key, owner, expires_at)
         VALUES ($1, $2, $3, clock_timestamp() + make_interval(secs => $4))
         ON CONFLICT (namespace, key) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
           WHERE keyed_lease.expires_at < clock_timestamp()
         RETURNING owner`,
        [this.options.namespace, key, owner, this.ttlMs / 1000],
      );
      if (rowCount(rows) > 0) return;
      if (Date.now() - started >= waitMs) throw new LockTimeoutError(key, Date.now() - started);
      await new Promise((resolve) => setTimeout(resolve, pause + Math.random() * pause));
    }
  }

  private async renew(key: string, owner: string): Promise<void> {
    await this.db.query(
      `UPDATE keyed_lease SET expires_at = clock_timestamp() + make_interval(secs => $4)
       WHERE namespace = $1 AND key = $2 AND owner = $3`,
      [this.options.namespace, key, owner, this.ttlMs / 1000],
    );
  }
}

/** TypeORM answers an INSERT … RETURNING with the rows; pg with `{ rows }`. */
function rowCount(result: unknown): number {
  // TypeORM answers UPDATE/DELETE with [rows, affected]; INSERT … RETURNING with the rows.
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0])) return result[0].length;
  if (Array.isArray(result)) return result.length;
  const rows = (result as { rows?: unknown[] }).rows;
  return rows?.length ?? 0;
}

/** Shared by the services that use leases; written to be applied more than once. */
export class KeyedLeaseMigration1763700000002 implements MigrationInterface {
  name = 'KeyedLeaseMigration1763700000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS "keyed_lease" (
        "namespace" text NOT NULL,
        "key" text NOT NULL,
        "owner" text NOT NULL,
        "expires_at" timestamptz NOT NULL,
        PRIMARY KEY ("namespace", "key")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS "keyed_lease"`);
  }
}
