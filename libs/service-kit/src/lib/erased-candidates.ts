import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import {
  createEvent,
  type ErasedRecordsDto,
  type ErasurePart,
  type EventEnvelope,
  Exchange,
  OperationFailedCode,
  RoutingKey,
} from '@connector/contracts';
import { MessagePublisher, PermanentMessageError } from '@connector/messaging';
import { IS_ERASED, TOMBSTONE } from './erased-candidates.sql';

/** Work found the candidate erased while it ran (checked again under its lock): refused like at the door. */
export class CandidateErasedError extends PermanentMessageError {
  constructor(candidateId: string, connectorId?: string) {
    super(`candidate ${candidateId} was erased`, connectorId);
  }
}

/** No record of a kind: what a part reports for the kinds it does not hold. */
export const NOTHING_ERASED: ErasedRecordsDto = {
  candidateLinks: 0,
  applicationLinks: 0,
  documentLinks: 0,
  candidateRefs: 0,
  deadLetters: 0,
};

/**
 * The erasure steps every service holding candidate data shares: the tombstone (ids only) that makes it
 * refuse the candidate's later events, the refusal (`operation.failed` with `CANDIDATE_ERASED`, the event
 * acknowledged and kept nowhere, so no personal data comes back through a failure log), and the report of
 * its part to connector-registry, which announces `candidate.erasure_completed`.
 * Needs `ErasedCandidateEntity` and `ErasedCandidateMigration1763900000504` in the service's persistence.
 */
@Injectable()
export class ErasedCandidates {
  private readonly logger = new Logger(ErasedCandidates.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly publisher: MessagePublisher,
  ) {}

  /** From now on this service refuses the candidate's events. */
  async tombstone(accountId: string, candidateId: string): Promise<void> {
    await TOMBSTONE.rows(this.dataSource, { accountId, candidateId });
  }

  async isErased(accountId: string, candidateId: string): Promise<boolean> {
    const [row] = await IS_ERASED.rows(this.dataSource, { accountId, candidateId });
    return row.erased;
  }

  /** CandidateErasedError when the candidate is erased: for work to check again under its lock. */
  async assertNotErased(accountId: string, candidateId: string, connectorId?: string): Promise<void> {
    if (await this.isErased(accountId, candidateId)) throw new CandidateErasedError(candidateId, connectorId);
  }

  /** True when `event` is about an erased candidate: then it is refused and reported, nothing else to do. */
  async refuse(event: EventEnvelope, candidateId: string): Promise<boolean> {
    if (!(await this.isErased(event.accountId, candidateId))) return false;
    this.logger.log(`${event.type} ${event.id} refused: its candidate was erased`);
    await this.publisher.publish(
      Exchange.ConnectorEvents,
      createEvent(
        RoutingKey.OperationFailed,
        event.accountId,
        {
          sourceEventId: event.id,
          sourceType: event.type,
          reason: `candidate ${candidateId} was erased (candidate.erased); its events are refused`,
          retryable: false,
          code: OperationFailedCode.CandidateErased,
        },
        { correlationId: event.correlationId ?? event.id },
      ),
    );
    return true;
  }

  /**
   * Runs `work` unless the event's candidate is erased; erased before (or while `work` waited for its lock
   * and found it so: CandidateErasedError), the event is refused and kept nowhere.
   */
  async unlessErased(event: EventEnvelope, candidateId: string, work: () => Promise<void>): Promise<void> {
    if (await this.refuse(event, candidateId)) return;
    try {
      await work();
    } catch (error) {
      if (!(error instanceof CandidateErasedError)) throw error;
      await this.refuse(event, candidateId);
    }
  }

  /**
   * As unlessErased, for work that checks under each of its locks itself (CandidateErasedError), and asks
   * isErased where it takes none: the check at the door would be a second statement for every event.
   */
  async refusedInside(event: EventEnvelope, candidateId: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (!(error instanceof CandidateErasedError)) throw error;
      await this.refuse(event, candidateId);
    }
  }

  /** This service's part of the erasure is done: connector-registry counts it in. */
  async partCompleted(
    cause: EventEnvelope,
    part: ErasurePart,
    removed: Partial<ErasedRecordsDto>,
  ): Promise<void> {
    const candidateId = (cause.data as { candidateId: string }).candidateId;
    await this.publisher.publish(
      Exchange.Internal,
      createEvent(
        RoutingKey.ErasurePartCompleted,
        cause.accountId,
        { candidateId, part, removed: { ...NOTHING_ERASED, ...removed } },
        { correlationId: cause.correlationId ?? cause.id },
      ),
    );
  }
}
