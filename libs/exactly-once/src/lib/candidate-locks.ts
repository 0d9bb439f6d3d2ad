import type { DataSource } from 'typeorm';
import { NotReadyError } from '@connector/messaging';
import { KeyedLeases, type Lease, LeaseLostError, LockTimeoutError } from '@connector/persistence';
import type { LinkClaim } from './link-table';

export interface CandidateLocksOptions {
  /** The service's own keys (`keyed_lease` is shared by every service). */
  namespace: string;
  /** How long a worker waits for the lock before the message waits and comes back. */
  waitMs: number;
}

/**
 * Serialises everything done to one candidate in one connector across processes, so a claim, its lookup
 * and its create are never interleaved with another worker's. A worker that cannot get the lock in time, or
 * loses it while it works, lets the message wait and come back (`NotReadyError`). The work gets the lease:
 * its token fences the records it writes, its signal says when to stop.
 */
export class CandidateLocks {
  private readonly leases: KeyedLeases;

  constructor(
    dataSource: DataSource,
    private readonly options: CandidateLocksOptions,
  ) {
    this.leases = new KeyedLeases(dataSource, { namespace: options.namespace });
  }

  async run<T>(connectorId: string, candidateId: string, work: (lease: Lease) => Promise<T>): Promise<T> {
    return this.locked(connectorId, candidateId, () =>
      this.leases.withLock(`${connectorId}:${candidateId}`, work, this.options.waitMs),
    );
  }

  /**
   * As run, the lock taken by the claim's statement (see KeyedLeases.withLockBy), which also claims or reads
   * the record's link in the same round trip; `work` gets what it found, under the lock.
   */
  async runBy<F, T>(claim: LinkClaim<F>, work: (lease: Lease, found: F) => Promise<T>): Promise<T> {
    const { connectorId, candidateId } = claim;
    return this.locked(connectorId, candidateId, () =>
      this.leases.withLockBy(
        `${connectorId}:${candidateId}`,
        claim.statement,
        (lease, row) => work(lease, claim.found(row)),
        this.options.waitMs,
      ),
    );
  }

  private async locked<T>(connectorId: string, candidateId: string, take: () => Promise<T>): Promise<T> {
    try {
      return await take();
    } catch (error) {
      if (error instanceof LockTimeoutError) {
        throw new NotReadyError(`candidate ${candidateId} is busy in another worker`, connectorId);
      }
      if (error instanceof LeaseLostError) {
        throw new NotReadyError(`candidate ${candidateId}: ${error.message}; trying again`, connectorId);
      }
      throw error;
    }
  }
}
