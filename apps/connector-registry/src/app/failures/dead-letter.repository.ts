import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import type { DataSource, Repository } from 'typeorm';
import type { DeadLetter } from '@connector/messaging';
import { DeadLetterEntity } from './dead-letter.entity';

/** Dead letters in Postgres. */
@Injectable()
export class DeadLetterRepository {
  private readonly rows: Repository<DeadLetterEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.rows = dataSource.getRepository(DeadLetterEntity);
  }

  async keep(deadLetter: DeadLetter): Promise<void> {
    await this.rows
      .createQueryBuilder()
      .insert()
      .values({
        id: randomUUID(),
        queue: deadLetter.queue,
        routingKey: deadLetter.routingKey,
        messageId: deadLetter.messageId ?? null,
        accountId: deadLetter.accountId ?? null,
        connectorId: deadLetter.connectorId ?? null,
        type: deadLetter.type ?? null,
        body: deadLetter.body,
        reasons: deadLetter.reasons,
        retryable: deadLetter.retryable,
        failedAt: deadLetter.failedAt,
      })
      .orIgnore()
      .execute();
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

  async markReplayed(id: string): Promise<void> {
    await this.rows.increment({ id }, 'replayCount', 1);
    await this.rows.update({ id }, { replayedAt: new Date() });
  }
}
