import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import {
  createEvent,
  type ErasedRecordsDto,
  type ErasurePart,
  type EventEnvelope,
  Exchange,
  RoutingKey,
} from '@connector/contracts';
import { MessagePublisher } from '@connector/messaging';
import { START_ERASURE } from './candidate-erasure.sql';
import { CandidateErasureEntity } from './candidate-erasure.entity';
import { completedErasure } from './erasure-progress';

/**
 * Counts in each service's part of a candidate's erasure and announces `candidate.erasure_completed` once all
 * have reported. One row per erasure, locked while a part is added, so however many registry processes take
 * the parts, the announcement goes out once (with the same id if it has to go again after a crash).
 */
@Injectable()
export class ErasureCoordinator {
  private readonly logger = new Logger(ErasureCoordinator.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly publisher: MessagePublisher,
  ) {}

  async partCompleted(
    cause: EventEnvelope,
    candidateId: string,
    part: ErasurePart,
    removed: ErasedRecordsDto,
  ): Promise<void> {
    const { accountId } = cause;
    await this.dataSource.transaction(async (manager) => {
      const rows = manager.getRepository(CandidateErasureEntity);
      await START_ERASURE.rows(manager, {
        accountId,
        candidateId,
        completionEventId: randomUUID(),
        correlationId: cause.correlationId ?? cause.id,
      });
      const erasure = await rows.findOneOrFail({
        where: { accountId, candidateId },
        lock: { mode: 'pessimistic_write' },
      });
      if (erasure.completedAt) return; // a part reported again after the announcement
      erasure.parts = { ...erasure.parts, [part]: removed };
      const total = completedErasure(erasure.parts);
      if (total) {
        // Inside the row lock and before the commit: announced once, or again with the same id after a crash.
        await this.publisher.publish(
          Exchange.ConnectorEvents,
          createEvent(
            RoutingKey.CandidateErasureCompleted,
            accountId,
            { candidateId, removed: total },
            {
              id: erasure.completionEventId,
              ...(erasure.correlationId ? { correlationId: erasure.correlationId } : {}),
            },
          ),
        );
        erasure.completedAt = new Date();
        this.logger.log(`erasure of candidate ${candidateId} completed: ${JSON.stringify(total)}`);
      }
      await rows.save(erasure);
    });
  }
}
