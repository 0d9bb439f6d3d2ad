import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { NotReadyError } from '@connector/messaging';
import { KeyedLocks, LockTimeoutError } from '@connector/persistence';
import { DocumentServiceConfig } from '../document-service.config';

/** Advisory-lock class of document-service: one upload per (connector, candidate) at a time. */
const DOCUMENT_LOCK_NAMESPACE = 4205_400;

/** Serialises uploads to one candidate in one connector across processes (the same file is attached once). */
@Injectable()
export class CandidateLocks implements OnApplicationShutdown {
  private readonly locks: KeyedLocks;

  constructor(private readonly config: DocumentServiceConfig) {
    this.locks = new KeyedLocks({
      url: config.DATABASE_URL,
      max: config.PREFETCH + 2,
      namespace: DOCUMENT_LOCK_NAMESPACE,
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
