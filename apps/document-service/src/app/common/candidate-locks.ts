import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { NotReadyError } from '@connector/messaging';
import { KeyedLeases, LockTimeoutError } from '@connector/persistence';
import { DocumentServiceConfig } from '../document-service.config';

/** Serialises uploads to one candidate in one connector across processes (the same file is attached once). */
@Injectable()
export class CandidateLocks {
  private readonly leases: KeyedLeases;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly config: DocumentServiceConfig,
  ) {
    this.leases = new KeyedLeases(dataSource, { namespace: 'document-service' });
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
