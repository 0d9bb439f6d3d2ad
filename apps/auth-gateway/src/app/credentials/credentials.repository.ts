import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, IsNull, LessThanOrEqual, MoreThan } from 'typeorm';
import { addToOutbox, type OutboxMessage } from '@connector/persistence';
import { SERVICE_NAME } from '../auth-gateway.config';
import { ConnectorCredentialEntity } from './connector-credential.entity';
import {
  CLAIM_DUE_RENEWALS,
  CLAIM_RENEWAL_LEASE,
  FIND_CREDENTIAL,
  MARK_IN_USE,
  RELEASE_RENEWAL_LEASE,
} from './credentials.sql';

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

/** Reads and writes of one connector's row while holding its renewal lease; each a short pooled query. */
export interface LeasedCredential {
  find(): Promise<ConnectorCredentialEntity | null>;
  /**
   * Only while the lease is still ours (a change setting `leaseOwner: null` gives it back) and the row still
   * holds the credentials last read (the claim's or the last `find`'s generation), else
   * CredentialsReplacedError: a save made meanwhile is never overwritten with what was renewed from the old.
   * With `announce`, the change and the messages that announce it (to the outbox) are written in one
   * transaction: a broker outage can delay the announcement, never lose it.
   */
  update(changes: Partial<ConnectorCredentialEntity>, announce?: OutboxMessage[]): Promise<void>;
  /**
   * Stores the rotated secret, guarded by `marker` (only while nobody else has started a refresh since), even
   * when the lease ran out meanwhile: a spent single-use token's successor must not be lost. Retries
   * `attempts` times.
   */
  saveRotation(changes: Partial<ConnectorCredentialEntity>, marker: string, attempts?: number): Promise<void>;
}

/** What `withRenewalLease` did: the work's result, or nothing because another renewal holds the lease. */
export type LeaseOutcome<T> = { leased: true; value: T } | { leased: false };

/** Every read and write of connector credentials, and the cross-process lease around renewals. */
@Injectable()
export class CredentialsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(connectorId: string): Promise<ConnectorCredentialEntity | null> {
    const [row] = await FIND_CREDENTIAL.rows(this.dataSource, { connectorId });
    return row ? this.entityOf(row) : null;
  }

  /** A raw row (column names) as the entity, by the entity's own column metadata. */
  private entityOf(row: Record<string, unknown>): ConnectorCredentialEntity {
    const metadata = this.dataSource.getMetadata(ConnectorCredentialEntity);
    const entity = new ConnectorCredentialEntity();
    for (const column of metadata.columns) column.setEntityValue(entity, row[column.databaseName]);
    return entity;
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

  /** Connectors whose access in use is due to be renewed ahead of its end; claimed so no other process takes them. */
  async claimDueRenewals(
    limit: number,
    retryMs: number,
  ): Promise<Array<{ connectorId: string; fingerprint: string | undefined }>> {
    const rows = await CLAIM_DUE_RENEWALS.rows(this.dataSource, { limit, retryMs });
    return rows.map((row) => ({
      connectorId: row.connector_id,
      fingerprint: row.access_fingerprint ?? undefined,
    }));
  }

  /** The access with this fingerprint was handed to a worker (written once per access). */
  async markInUse(connectorId: string, fingerprint: string): Promise<void> {
    await MARK_IN_USE.rows(this.dataSource, { connectorId, fingerprint });
  }

  /**
   * Runs `work` while holding this connector's renewal lease, or answers `leased: false` at once when another
   * renewal holds it. The lease is a row's columns, not a connection: no pooled connection waits on the ATS.
   * `leaseMs` must outlive the work (the ATS call's timeout); after it, another may take over.
   */
  async withRenewalLease<T>(
    connectorId: string,
    work: (leased: LeasedCredential, row: ConnectorCredentialEntity) => Promise<T>,
    leaseMs: number,
  ): Promise<LeaseOutcome<T>> {
    const owner = randomUUID();
    const [claimed] = await CLAIM_RENEWAL_LEASE.rows(this.dataSource, { connectorId, owner, leaseMs });
    if (!claimed) return { leased: false };
    // The claim answers the row as it is now: no second read.
    const row = this.entityOf(claimed);
    const lease = { released: false };
    try {
      const handle = this.leasedHandle(connectorId, owner, lease, row.generation);
      return { leased: true, value: await work(handle, row) };
    } finally {
      // Unless the work's last write gave it back; a failed release only lets the lease run out by itself.
      if (!lease.released) {
        await RELEASE_RENEWAL_LEASE.rows(this.dataSource, { connectorId, owner }).catch(() => undefined);
      }
    }
  }

  private leasedHandle(
    connectorId: string,
    owner: string,
    lease: { released: boolean },
    claimed: string | null,
  ): LeasedCredential {
    const repository = this.dataSource.getRepository(ConnectorCredentialEntity);
    /** The generation of the row last read through this handle, first the one the claim answered. */
    let read: string | null | undefined = claimed;
    const where = () => ({
      connectorId,
      leaseOwner: owner,
      ...(read === undefined ? {} : { generation: read === null ? IsNull() : read }),
    });
    return {
      find: async () => {
        const row = await this.find(connectorId);
        read = row ? row.generation : undefined;
        return row;
      },
      update: async (changes, announce = []) => {
        if (announce.length === 0) {
          const result = await repository.update(where(), changes);
          if (result.affected === 0) throw new CredentialsReplacedError();
        } else {
          await this.dataSource.transaction(async (manager) => {
            const result = await manager.getRepository(ConnectorCredentialEntity).update(where(), changes);
            if (result.affected === 0) throw new CredentialsReplacedError();
            await addToOutbox(manager, SERVICE_NAME, announce);
          });
        }
        if (changes.leaseOwner === null) lease.released = true;
      },
      saveRotation: async (changes, marker, attempts = 5) => {
        let lastError: unknown;
        for (let attempt = 0; attempt < attempts; attempt++) {
          try {
            const result = await repository.update({ connectorId, refreshMarker: marker }, changes);
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
