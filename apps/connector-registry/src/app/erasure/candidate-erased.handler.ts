import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type CandidateErasedDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { ErasedCandidates, NOTHING_ERASED } from '@connector/service-kit';
import { DeadLetterRepository } from '../failures/dead-letter.repository';
import { ErasureCoordinator } from './erasure-coordinator.service';

/**
 * `candidate.erased` in connector-registry: the tombstone (dead letters about the candidate that arrive later
 * are not kept), then the failure log's entries about the candidate go; its part is counted in directly.
 */
@Controller()
export class CandidateErasedHandler {
  constructor(
    private readonly erased: ErasedCandidates,
    private readonly deadLetters: DeadLetterRepository,
    private readonly coordinator: ErasureCoordinator,
  ) {}

  @EventPattern(RoutingKey.CandidateErased)
  async handle(@Payload() event: EventEnvelope<typeof RoutingKey.CandidateErased, CandidateErasedDto>) {
    const { candidateId } = event.data;
    await this.erased.tombstone(event.accountId, candidateId);
    const deadLetters = await this.deadLetters.eraseCandidate(event.accountId, candidateId);
    await this.coordinator.partCompleted(event, candidateId, 'connector-registry', {
      ...NOTHING_ERASED,
      deadLetters,
    });
  }
}
