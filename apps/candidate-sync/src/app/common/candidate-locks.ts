import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { NotReadyError } from '@connector/messaging';
import { KeyedLocks, LockTimeoutError } from '@connector/persistence';
import { CandidateSyncConfig } from '../candidate-sync.config';

/** Advisory-lock class of candidate-sync: one worker per (connector, candidate) at a time. */
const CANDIDATE_LOCK_NAMESPACE = 4205_300;

/**
 * Serialises everything done to one candidate in one connector (profile updates and applications), across
 * processes. A worker that cannot get the lock in time lets the message wait and come back.
 */
@Injectable()
export class CandidateLocks implements OnApplicationShutdown {
  private readonly locks: KeyedLocks;

  constructor(private readonly config: CandidateSyncConfig) {
    this.locks = new KeyedLocks({
      url: config.DATABASE_URL,
      max: config.PREFETCH + 2,
      namespace: CANDIDATE_LOCK_NAMESPACE,
    });
  }

  async run<T>(connectorId: string, candidateId: string, work: () => Promise<T>): Promise<T> {
    try {
      return await this.locks.withLock(`${connectorId}:${candidateId}`, work, this.config.LOCK_WAIT_MS);
    } catch (error) {
      if (error instanceof LockTimeoutError) {
        throw new NotReadyError(`candidate ${candidateId} is busy in another worker`, connectorId);
      }
      throw error;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.locks.close();
  }
}
