import { NotReadyError } from '@connector/messaging';
import { KeyedLeases, type LeaseDatabase, LockTimeoutError } from '@connector/persistence';

export interface CandidateLocksOptions {
  /** The service's own keys (`keyed_lease` is shared by every service). */
  namespace: string;
  /** How long a worker waits for the lock before the message waits and comes back. */
  waitMs: number;
}

/**
 * Serialises everything done to one candidate in one connector across processes, so a claim, its lookup
 * and its create are never interleaved with another worker's. A worker that cannot get the lock in time
 * lets the message wait and come back (`NotReadyError`).
 */
export class CandidateLocks {
  private readonly leases: KeyedLeases;

  constructor(
    db: LeaseDatabase,
    private readonly options: CandidateLocksOptions,
  ) {
    this.leases = new KeyedLeases(db, { namespace: options.namespace });
  }

  async run<T>(connectorId: string, candidateId: string, work: () => Promise<T>): Promise<T> {
    try {
      return await this.leases.withLock(`${connectorId}:${candidateId}`, work, this.options.waitMs);
    } catch (error) {
      if (error instanceof LockTimeoutError) {
        throw new NotReadyError(`candidate ${candidateId} is busy in another worker`, connectorId);
      }
      throw error;
    }
  }
}
