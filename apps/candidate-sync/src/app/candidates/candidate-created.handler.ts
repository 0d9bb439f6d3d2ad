import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type CandidateDataDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { ErasedCandidates } from '@connector/service-kit';
import { CandidateSyncService } from './candidate-sync.service';

/** `candidate.created` (validated by the transport): the candidate into every connector of the account. */
@Controller()
export class CandidateCreatedHandler {
  constructor(
    private readonly candidates: CandidateSyncService,
    private readonly erased: ErasedCandidates,
  ) {}

  @EventPattern(RoutingKey.CandidateCreated)
  async handle(@Payload() event: EventEnvelope<typeof RoutingKey.CandidateCreated, CandidateDataDto>) {
    // Checked under each connector's lock (CandidateSyncService.sync): no statement of its own at the door.
    await this.erased.refusedInside(event, event.data.candidateId, () => this.candidates.sync(event));
  }
}
