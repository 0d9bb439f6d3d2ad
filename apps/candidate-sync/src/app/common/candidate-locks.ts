import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { NotReadyError } from '@connector/messaging';
import { KeyedLeases, LockTimeoutError } from '@connector/persistence';
import { CandidateSyncConfig } from '../candidate-sync.config';

/**
 * Serialises everything done to one candidate in one connector (profile updates and applications), across
 * processes. A worker that cannot get the lock in time lets the message wait and come back.
 */
@Injectable()
export class CandidateLocks {
  private readonly leases: KeyedLeases;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly config: CandidateSyncConfig,
  ) {
    this.leases = new KeyedLeases(dataSource, { namespace: 'candidate-sync' });
  }

  async run<T>(connectorId: string, candidateId: string, work: () => Promise<T>): Promise<T> {
    try {
      return await this.leases.withLock(`${connectorId}:${candidateId}`, work, this.config.LOCK_WAIT_MS);
    } catch (error) {
      if (error instanceof LockTimeoutError) {
        throw new NotReadyError(`candidate ${candidateId} is busy in another worker`, connectorId);
      }
      throw error;
    }
  }
}
