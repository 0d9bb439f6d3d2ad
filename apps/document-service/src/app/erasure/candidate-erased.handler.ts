import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type CandidateErasedDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { ErasedCandidates } from '@connector/service-kit';
import { DocumentErasureService } from './document-erasure.service';

/** `candidate.erased`: document-service erases what it holds of the candidate and reports its part. */
@Controller()
export class CandidateErasedHandler {
  constructor(
    private readonly erasure: DocumentErasureService,
    private readonly erased: ErasedCandidates,
  ) {}

  @EventPattern(RoutingKey.CandidateErased)
  async handle(@Payload() event: EventEnvelope<typeof RoutingKey.CandidateErased, CandidateErasedDto>) {
    const removed = await this.erasure.erase(event.accountId, event.data.candidateId);
    await this.erased.partCompleted(event, 'document-service', removed);
  }
}
