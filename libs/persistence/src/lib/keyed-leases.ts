import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import {
  ACQUIRE_LEASE,
  type LeaseRelease,
  type LeaseValues,
  RELEASE_LEASES,
  RENEW_LEASE,
} from './keyed-leases.sql';
import { preparedStatements } from './prepared-statements';
import type { SqlQueryable } from './sql-rows';

/** Releases that end within this long of each other are written in one statement. */
const RELEASE_BATCH_MS = 5;

/** A lease of a holder that died lapses this long after its last renewal, unless `ttlMs` says otherwise. */
export const DEFAULT_LEASE_TTL_MS = 60_000;

/**
 * A statement built on leaseCte that does more in the same round trip (KeyedLeases.withLockBy): the token
 * and its own result when the lease was granted, undefined while it is held elsewhere.
 */
export type LeaseStatement<R> = (lease: LeaseValues) => Promise<{ token: number; result: R } | undefined>;

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

/** The lease was lost while the work ran (it lapsed and may be someone else's): stop, write nothing more. */
export class LeaseLostError extends Error {
  constructor(
    readonly key: string,
    why: string,
  ) {
    super(`lease on ${key} lost: ${why}`);
    this.name = 'LeaseLostError';
  }
}

/** What the work holding a lease gets. */
export interface Lease {
  key: string;
  /**
   * The fencing token: every grant of any lease takes the next value of one sequence, so a later holder of a
   * key always has a larger token than an earlier one. Writes record it and refuse a smaller one.
   */
  token: number;
  /** Aborted (with a LeaseLostError) once the lease is lost: a renewal touched no row or kept failing. */
  signal: AbortSignal;
  /**
   * For the holder's last statement to release the lease in the same round trip (leaseReleaseCte with
   * `values`); `done()` once that statement succeeded, so the release is not sent again.
   */
  release?: { values: LeaseRelease; done(): void };
}

export interface KeyedLeasesOptions {
  /** Keeps services' keys apart: the service's name (under per-service roles a service sees only its own). */
  namespace: string;
  /** A lease lapses this long after its last renewal, when its holder died. */
  ttlMs?: number;
}

/**
 * One worker at a time per key, across processes, without holding a database connection while the work
 * runs (the work calls an ATS): a row in `keyed_lease` taken with one atomic upsert, renewed while the work
 * runs, deleted when it ends, and taken over by another worker only once it has lapsed (its holder died).
 * A holder that cannot renew in time is told (its signal aborts), and its fencing token lets the records it
 * writes refuse it once a later holder has been at them.
 */
export class KeyedLeases {
  private readonly ttlMs: number;
  /** The statements each message runs (acquire, release), prepared. */
  private readonly statements: SqlQueryable;
  private releases: Array<{ key: string; owner: string }> = [];
  private releasing?: Promise<void>;

  constructor(
    dataSource: DataSource,
    private readonly options: KeyedLeasesOptions,
  ) {
    this.ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
    this.statements = preparedStatements(dataSource);
  }

  /** Runs `work` holding the lease of `key`; LockTimeoutError when it stays taken for `waitMs`. */
  async withLock<T>(key: string, work: (lease: Lease) => Promise<T>, waitMs: number): Promise<T> {
    return this.withLockBy(
      key,
      async (params) => {
        const [granted] = await ACQUIRE_LEASE.rows(this.statements, params);
        // bigint: pg hands it over as text.
        return granted ? { token: Number(granted.token), result: undefined } : undefined;
      },
      (lease) => work(lease),
      waitMs,
    );
  }

  /**
   * As withLock, the lease taken by `statement`, which does more in the same round trip: built on leaseCte
   * with the values it is given, it answers the token and its own result when the lease was granted, and
   * undefined (having done nothing else) while it is held elsewhere. `work` gets the result under the lease.
   */
  async withLockBy<R, T>(
    key: string,
    statement: LeaseStatement<R>,
    work: (lease: Lease, result: R) => Promise<T>,
    waitMs: number,
  ): Promise<T> {
    const owner = randomUUID();
    const { token, result } = await this.acquire(key, waitMs, () =>
      statement({
        leaseNamespace: this.options.namespace,
        leaseKey: key,
        leaseOwner: owner,
        leaseTtlSeconds: this.ttlMs / 1000,
      }),
    );
    // Renewed well before it lapses, so a long ATS call never lets a second worker in.
    const renewal = renewWhileHeld(key, this.ttlMs, () => this.renew(key, owner, token));
    let released = false;
    const release = {
      values: { releaseNamespace: this.options.namespace, releaseKey: key, releaseOwner: owner },
      done: () => {
        released = true;
        renewal.stop();
      },
    };
    try {
      return await work({ key, token, signal: renewal.signal, release }, result);
    } finally {
      renewal.stop();
      // not released: it lapses after ttlMs
      if (!released) await this.release(key, owner).catch(() => undefined);
    }
  }

  /** Deletes the holder's row, together with the other releases of the next few milliseconds. */
  private release(key: string, owner: string): Promise<void> {
    this.releases.push({ key, owner });
    this.releasing ??= new Promise((resolve) => setTimeout(resolve, RELEASE_BATCH_MS)).then(async () => {
      const batch = this.releases;
      this.releases = [];
      this.releasing = undefined;
      await RELEASE_LEASES.rows(this.statements, {
        namespace: this.options.namespace,
        keys: batch.map((r) => r.key),
        owners: batch.map((r) => r.owner),
      });
    });
    return this.releasing;
  }

  /** Tries `attempt` (one statement) until it grants the lease, pausing longer each time, for `waitMs`. */
  private async acquire<G>(key: string, waitMs: number, attempt: () => Promise<G | undefined>): Promise<G> {
    const started = Date.now();
    for (let pause = 10; ; pause = Math.min(pause * 2, 200)) {
      const granted = await attempt();
      if (granted) return granted;
      if (Date.now() - started >= waitMs) throw new LockTimeoutError(key, Date.now() - started);
      await new Promise((resolve) => setTimeout(resolve, pause + Math.random() * pause));
    }
  }

  /** False when the lease is no longer this holder's (it lapsed and was taken over, or removed). */
  private async renew(key: string, owner: string, token: number): Promise<boolean> {
    const renewed = await RENEW_LEASE.rows(this.statements, {
      namespace: this.options.namespace,
      key,
      owner,
      token: String(token),
      ttlSeconds: this.ttlMs / 1000,
    });
    return renewed.length > 0;
  }
}

/** A lease being renewed: `signal` aborts (with a LeaseLostError) once it is lost; `stop` when done. */
export interface LeaseRenewal {
  signal: AbortSignal;
  stop(): void;
}

/**
 * Renews a lease every third of its TTL. A renewal that touches no row (`renew` answers false) means it is
 * gone. The lease is given up once two thirds of its TTL have passed since it was last confirmed, whether
 * the renewals in between failed or never answered (a half-open connection: the pool sets no query timeout),
 * so the holder stops before it could lapse and be taken over; the third left is the margin.
 */
export function renewWhileHeld(key: string, ttlMs: number, renew: () => Promise<boolean>): LeaseRenewal {
  const lost = new AbortController();
  const every = ttlMs / 3;
  let lastError: Error | undefined;
  let timer: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  let stopped = false;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    clearTimeout(deadline);
  };
  const giveUp = (why: string) => {
    stop();
    lost.abort(new LeaseLostError(key, why));
  };
  // Set again by each renewal that is confirmed, counted from when it was sent: the database set the new
  // expiry no earlier than that.
  const confirmed = (at: number) => {
    clearTimeout(deadline);
    deadline = setTimeout(
      () => giveUp(`could not renew it in time: ${lastError?.message ?? 'no answer'}`),
      at + ttlMs - every - Date.now(),
    );
    deadline.unref();
  };
  // One renewal at a time: the next is scheduled once this one has answered.
  const attempt = async () => {
    const sentAt = Date.now();
    try {
      const held = await renew();
      if (stopped) return;
      if (!held) return giveUp('it lapsed and was taken over, or removed');
      lastError = undefined;
      confirmed(sentAt);
    } catch (error) {
      lastError = error as Error;
    }
    if (!stopped) schedule();
  };
  const schedule = () => {
    timer = setTimeout(() => void attempt(), every);
    timer.unref();
  };
  confirmed(Date.now());
  schedule();
  return { signal: lost.signal, stop };
}
