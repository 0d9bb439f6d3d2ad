import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { type DataSource, IsNull, type Repository } from 'typeorm';
import type { JobMapping } from '@connector/job-mapping';
import { addToOutbox, type OutboxMessage } from '@connector/persistence';
import { SERVICE_NAME } from '../connector-registry.config';
import { ConnectorEntity } from '../connectors/connector.entity';
import { JobMappingEntity } from '../mapping/job-mapping.entity';
import { LIVE_CONNECTOR_COUNTS, LIVE_CONNECTORS_OF_ACCOUNT, LOCK_ACCOUNT_CONNECTORS } from './connector.sql';

/** Connectors in Postgres. "Deleted" connectors are kept (runs point at them) but never found. */
@Injectable()
export class ConnectorRepository {
  private readonly connectors: Repository<ConnectorEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.connectors = dataSource.getRepository(ConnectorEntity);
  }

  /** A live connector of this account; null for another account's, a deleted one, or a malformed id. */
  async findOwned(accountId: string, id: string): Promise<ConnectorEntity | null> {
    if (!isUUID(id)) return null;
    return this.connectors.findOneBy({ id, accountId, deletedAt: IsNull() });
  }

  /** A live connector, whoever owns it (for workers and messages). */
  async findLive(id: string): Promise<ConnectorEntity | null> {
    if (!isUUID(id)) return null;
    return this.connectors.findOneBy({ id, deletedAt: IsNull() });
  }

  /** A connector, deleted or not. */
  async findAny(id: string): Promise<ConnectorEntity | null> {
    if (!isUUID(id)) return null;
    return this.connectors.findOneBy({ id });
  }

  async listByAccount(accountId: string): Promise<ConnectorEntity[]> {
    return this.connectors.find({
      where: { accountId, deletedAt: IsNull() },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** Live connectors per ATS type and status (for the metrics). */
  async countByTypeAndStatus(): Promise<Array<{ type: string; status: string; count: number }>> {
    return LIVE_CONNECTOR_COUNTS.rows(this.dataSource, {});
  }

  /** An account's live connectors. */
  async countLive(accountId: string): Promise<number> {
    const [row] = await LIVE_CONNECTORS_OF_ACCOUNT.rows(this.dataSource, { accountId });
    return row?.count ?? 0;
  }

  /**
   * Inserts a connector with its first job mapping, together or not at all; `limit` (nothing inserted) when
   * its account has `maxPerAccount` live connectors already (counted under a per-account lock).
   */
  async insertWithMapping(
    connector: ConnectorEntity,
    mapping: JobMapping,
    createdBy: string,
    maxPerAccount: number,
  ): Promise<'inserted' | 'limit'> {
    return this.dataSource.transaction(async (manager) => {
      await LOCK_ACCOUNT_CONNECTORS.rows(manager, { accountId: connector.accountId });
      const [row] = await LIVE_CONNECTORS_OF_ACCOUNT.rows(manager, { accountId: connector.accountId });
      if (row && row.count >= maxPerAccount) return 'limit';
      await manager.save(ConnectorEntity, connector);
      await manager.insert(JobMappingEntity, { connectorId: connector.id, version: 1, mapping, createdBy });
      return 'inserted';
    });
  }

  async save(connector: ConnectorEntity): Promise<ConnectorEntity> {
    return this.connectors.save(connector);
  }

  /**
   * Marks it deleted and stores the messages that announce it (to the outbox) in the same transaction, so
   * the gateway hears of the deletion (and erases the secrets) however long the broker is away.
   */
  async markDeleted(id: string, announce: OutboxMessage[], at = new Date()): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const result = await manager.update(ConnectorEntity, { id, deletedAt: IsNull() }, { deletedAt: at });
      if (result.affected) await addToOutbox(manager, SERVICE_NAME, announce);
    });
  }

  /** Stores messages to the outbox on their own (the relay publishes them). */
  async announce(messages: OutboxMessage[]): Promise<void> {
    await this.dataSource.transaction((manager) => addToOutbox(manager, SERVICE_NAME, messages));
  }

  /** Whether a connector exists and is not deleted. */
  async isLive(id: string): Promise<boolean> {
    return isUUID(id) && (await this.connectors.existsBy({ id, deletedAt: IsNull() }));
  }

  /**
   * Reads a live connector under a row lock, lets `change` decide, and saves what it returns; null when
   * the connector is missing or deleted. Keeps status changes from the broker and from admins in order.
   */
  async updateLocked(
    id: string,
    change: (connector: ConnectorEntity) => ConnectorEntity | undefined,
  ): Promise<{ before: ConnectorEntity; after?: ConnectorEntity } | null> {
    if (!isUUID(id)) return null;
    return this.dataSource.transaction(async (manager) => {
      const current = await manager.findOne(ConnectorEntity, {
        where: { id, deletedAt: IsNull() },
        lock: { mode: 'pessimistic_write' },
      });
      if (!current) return null;
      const before = manager.create(ConnectorEntity, { ...current });
      const next = change(current);
      return { before, after: next && (await manager.save(ConnectorEntity, next)) };
    });
  }
}
