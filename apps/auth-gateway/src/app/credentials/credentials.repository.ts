import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ConnectorCredentialEntity } from './connector-credential.entity';

/** Advisory-lock namespace for "one renewal of this connector's access at a time, across processes". */
const CONNECTOR_LOCK_CLASS = 4205;

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

  /**
   * Runs `work` while holding this connector's advisory lock. The lock lives on its own connection, so it
   * is released when `work` ends, or when the process dies and Postgres drops that connection.
   */
  async withConnectorLock<T>(connectorId: string, work: () => Promise<T>, waitMs = 20_000): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const deadline = Date.now() + waitMs;
      for (;;) {
        const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [
          CONNECTOR_LOCK_CLASS,
          connectorId,
        ])) as Array<{ locked: boolean }>;
        if (locked) break;
        if (Date.now() > deadline) throw new Error(`connector ${connectorId} stayed locked for ${waitMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25 + Math.random() * 25));
      }
      try {
        return await work();
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1, hashtext($2))', [
          CONNECTOR_LOCK_CLASS,
          connectorId,
        ]);
      }
    } finally {
      await runner.release();
    }
  }
}
