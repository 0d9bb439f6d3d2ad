import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, IsNull, LessThanOrEqual, MoreThan, type QueryRunner } from 'typeorm';
import { addToOutbox, booleanColumn, type OutboxMessage } from '@connector/persistence';
import { SERVICE_NAME } from '../auth-gateway.config';
import { ConnectorCredentialEntity } from './connector-credential.entity';
import { CONNECTOR_UNLOCK, TRY_CONNECTOR_LOCK } from './credentials.sql';

/** Advisory-lock namespace for "one renewal of this connector's access at a time, across processes". */
const CONNECTOR_LOCK_CLASS = 4205;

/** Another process started a refresh of this connector since ours: our rotation must not overwrite it. */
export class MarkerLostError extends Error {
  override name = 'MarkerLostError';
  constructor() {
    super('the refresh marker changed: another process took over the renewal');
  }
}

/** The credentials were saved anew (or erased) since they were read: what was worked out from them is stale. */
export class CredentialsReplacedError extends Error {
  override name = 'CredentialsReplacedError';
  constructor() {
    super('the credentials were replaced while they were being renewed');
  }
}

/** Reads and writes of one connector's row on the connection that holds its renewal lock. */
export interface LockedCredential {
  find(): Promise<ConnectorCredentialEntity | null>;
  /**
   * After a `find`, only while the row still holds the credentials it read (the same generation), else
   * CredentialsReplacedError: a save made meanwhile is never overwritten with what was renewed from the old.
   * With `announce`, the change and the messages that announce it (to the outbox) are written in one
   * transaction: a broker outage can delay the announcement, never lose it.
   */
  update(changes: Partial<ConnectorCredentialEntity>, announce?: OutboxMessage[]): Promise<void>;
  /**
   * Stores the rotated secret: on the lock's connection, and if that connection is gone, through the pool
   * guarded by `marker` (only while nobody else has started a refresh since). Retries `attempts` times.
   */
  saveRotation(changes: Partial<ConnectorCredentialEntity>, marker: string, attempts?: number): Promise<void>;
}

/** Every read and write of connector credentials, and the cross-process lock around renewals. */
@Injectable()
export class CredentialsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  find(connectorId: string): Promise<ConnectorCredentialEntity | null> {
    return this.dataSource.getRepository(ConnectorCredentialEntity).findOneBy({ connectorId });
  }

  async save(credential: Partial<ConnectorCredentialEntity> & { connectorId: string }): Promise<void> {
    await this.dataSource.getRepository(ConnectorCredentialEntity).save(credential);
  }

  async update(connectorId: string, changes: Partial<ConnectorCredentialEntity>): Promise<void> {
    await this.dataSource.getRepository(ConnectorCredentialEntity).update({ connectorId }, changes);
  }

  async delete(connectorId: string): Promise<void> {
    await this.dataSource.getRepository(ConnectorCredentialEntity).delete({ connectorId });
  }

  /** Connectors whose refused ATS-A secret is due to be tried again. */
  async dueForRecheck(limit = 100): Promise<string[]> {
    const rows = await this.dataSource.getRepository(ConnectorCredentialEntity).find({
      select: { connectorId: true },
      where: { state: 'rejected', recheckAt: LessThanOrEqual(new Date()) },
      order: { recheckAt: 'ASC' },
      take: limit,
    });
    return rows.map((row) => row.connectorId);
  }

  /** Every row holding sealed data, a page at a time (for re-sealing under the newest key). */
  sealedPage(after: string, limit: number): Promise<ConnectorCredentialEntity[]> {
    return this.dataSource.getRepository(ConnectorCredentialEntity).find({
      where: { connectorId: MoreThan(after) },
      order: { connectorId: 'ASC' },
      take: limit,
    });
  }

  /**
   * Runs `work` while holding this connector's advisory lock. The lock and every write `work` makes through
   * the handle share one connection: if it drops, the lock goes and so do our writes, never one without
   * the other. Postgres releases the lock when the process dies.
   */
  async withConnectorLock<T>(
    connectorId: string,
    work: (locked: LockedCredential) => Promise<T>,
    waitMs = 20_000,
  ): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const deadline = Date.now() + waitMs;
      for (;;) {
        const [row] = await TRY_CONNECTOR_LOCK.rows(runner, { lockClass: CONNECTOR_LOCK_CLASS, connectorId });
        if (booleanColumn(row, 'locked')) break;
        if (Date.now() > deadline) throw new Error(`connector ${connectorId} stayed locked for ${waitMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25 + Math.random() * 25));
      }
      try {
        return await work(this.lockedHandle(runner, connectorId));
      } finally {
        // A dropped connection has released it already.
        const unlock = { lockClass: CONNECTOR_LOCK_CLASS, connectorId };
        await CONNECTOR_UNLOCK.rows(runner, unlock).catch(() => undefined);
      }
    } finally {
      await runner.release();
    }
  }

  private lockedHandle(runner: QueryRunner, connectorId: string): LockedCredential {
    const repository = runner.manager.getRepository(ConnectorCredentialEntity);
    const pool = this.dataSource.getRepository(ConnectorCredentialEntity);
    /** The generation of the row last read through this handle (undefined: none read yet). */
    let read: string | null | undefined;
    const where = () =>
      read === undefined ? { connectorId } : { connectorId, generation: read === null ? IsNull() : read };
    return {
      find: async () => {
        const row = await repository.findOneBy({ connectorId });
        read = row ? row.generation : undefined;
        return row;
      },
      update: async (changes, announce = []) => {
        if (announce.length === 0) {
          const result = await repository.update(where(), changes);
          if (result.affected === 0) throw new CredentialsReplacedError();
          return;
        }
        // On the lock's own connection, as every other write under the lock.
        await runner.manager.transaction(async (manager) => {
          const result = await manager.getRepository(ConnectorCredentialEntity).update(where(), changes);
          if (result.affected === 0) throw new CredentialsReplacedError();
          await addToOutbox(manager, SERVICE_NAME, announce);
        });
      },
      saveRotation: async (changes, marker, attempts = 5) => {
        let lastError: unknown;
        for (let attempt = 0; attempt < attempts; attempt++) {
          try {
            // First on the lock's connection; if that failed, it may be gone: a pooled one, still guarded.
            const result = await (attempt === 0 ? repository : pool).update(
              { connectorId, refreshMarker: marker },
              changes,
            );
            if (result.affected === 0) throw new MarkerLostError();
            return;
          } catch (error) {
            lastError = error;
            if (error instanceof MarkerLostError) throw error;
            await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
          }
        }
        throw lastError;
      },
    };
  }
}
