import { Pool, type PoolClient } from 'pg';

/** Postgres refused to wait longer for the lock (lock_timeout): someone else holds it. */
export class LockTimeoutError extends Error {
  constructor(
    readonly key: string,
    waitedMs: number,
  ) {
    super(`lock on ${key} still held by another worker after ${waitedMs} ms`);
    this.name = 'LockTimeoutError';
  }
}

export interface KeyedLocksOptions {
  url: string;
  /** Most locks held at once by this process (one connection each): the consumer's prefetch is enough. */
  max: number;
  /** Advisory-lock class (first key), so services' locks never collide. */
  namespace: number;
}

/**
 * One worker at a time per key, across processes: a Postgres session advisory lock held on a connection of
 * its own pool, so work done under it may use the service's pool freely (no pool exhaustion) and a process
 * that dies releases its locks with its connections.
 */
export class KeyedLocks {
  private readonly pool: Pool;

  constructor(private readonly options: KeyedLocksOptions) {
    this.pool = new Pool({
      connectionString: options.url,
      max: options.max,
      connectionTimeoutMillis: 10_000,
    });
    // An idle connection that drops is replaced on the next connect(); nothing to do here.
    this.pool.on('error', () => undefined);
  }

  /** Runs `work` holding the lock of `key`; LockTimeoutError when it stays taken for `waitMs`. */
  async withLock<T>(key: string, work: () => Promise<T>, waitMs: number): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query(`SET lock_timeout = ${Math.max(1, Math.floor(waitMs))}`);
      try {
        await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [this.options.namespace, key]);
      } catch (error) {
        if ((error as { code?: string }).code === '55P03') throw new LockTimeoutError(key, waitMs);
        throw error;
      }
      try {
        return await work();
      } finally {
        broken = !(await unlock(client, this.options.namespace, key));
      }
    } finally {
      // A connection whose unlock failed is destroyed, which releases the lock for sure.
      client.release(broken ? new Error('advisory unlock failed') : undefined);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

async function unlock(client: PoolClient, namespace: number, key: string): Promise<boolean> {
  try {
    await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [namespace, key]);
    return true;
  } catch {
    return false;
  }
}
