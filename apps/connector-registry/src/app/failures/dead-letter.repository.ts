import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import type { DataSource, Repository } from 'typeorm';
import type { DeadLetter } from '@connector/messaging';
import { DeadLetterEntity } from './dead-letter.entity';
import { ADD_REASON, KEEP } from './dead-letter.sql';

/**
 * Postgres text and jsonb cannot hold U+0000, and a hostile message's fields or its parse error can carry
 * it: replaced, so that every dead letter can be kept (one that cannot would be handed back forever).
 */
export function storable(text: string): string;
export function storable(text: string | undefined): string | null;
export function storable(text: string | undefined): string | null {
  return text === undefined ? null : text.replaceAll('\u0000', '\uFFFD');
}

/**
 * An id taken from a failed message's body, kept only when it can be one: these columns are indexed, and a
 * hostile body's megabyte-long "id" would make the row unstorable (and the dead letter handed back for ever).
 * The body itself is kept whole.
 */
export function identifier(text: string | undefined): string | null {
  return text === undefined || text.length > MAX_IDENTIFIER ? null : storable(text);
}

/** Far above any id of the contract (at most 100 characters). */
const MAX_IDENTIFIER = 500;

/** Dead letters in Postgres. */
@Injectable()
export class DeadLetterRepository {
  private readonly rows: Repository<DeadLetterEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.rows = dataSource.getRepository(DeadLetterEntity);
  }

  async keep(deadLetter: DeadLetter): Promise<void> {
    await KEEP.rows(this.dataSource, {
      id: randomUUID(),
      queue: storable(deadLetter.queue),
      routingKey: storable(deadLetter.routingKey),
      messageId: identifier(deadLetter.messageId),
      accountId: identifier(deadLetter.accountId),
      connectorId: identifier(deadLetter.connectorId),
      type: identifier(deadLetter.type),
      candidateId: identifier(deadLetter.candidateId),
      body: deadLetter.body,
      reasons: JSON.stringify(deadLetter.reasons.map((reason) => storable(reason))),
      retryable: deadLetter.retryable,
      publishedBy: deadLetter.publishedBy ?? null,
      failedAt: deadLetter.failedAt,
    });
  }

  list(filter: { accountId: string; connectorId?: string; limit: number }): Promise<DeadLetterEntity[]> {
    return this.rows.find({
      where: {
        accountId: filter.accountId,
        ...(filter.connectorId ? { connectorId: filter.connectorId } : {}),
      },
      order: { failedAt: 'DESC' },
      take: filter.limit,
    });
  }

  async findOwned(accountId: string, id: string): Promise<DeadLetterEntity | null> {
    if (!isUUID(id)) return null;
    return this.rows.findOneBy({ id, accountId });
  }

  /** Erasure: the account's dead letters about the candidate go. How many went. */
  async eraseCandidate(accountId: string, candidateId: string): Promise<number> {
    return (await this.rows.delete({ accountId, candidateId })).affected ?? 0;
  }

  /** Appends a reason (e.g. why a replay was refused) to a failure. */
  async addReason(id: string, reason: string): Promise<void> {
    await ADD_REASON.rows(this.dataSource, { id, reason: storable(reason) });
  }

  async markReplayed(id: string): Promise<void> {
    await this.rows.increment({ id }, 'replayCount', 1);
    await this.rows.update({ id }, { replayedAt: new Date() });
  }
}
