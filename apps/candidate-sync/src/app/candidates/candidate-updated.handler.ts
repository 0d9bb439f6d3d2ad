import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type CandidateDataDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { ErasedCandidates } from '@connector/service-kit';
import { CandidateSyncService } from './candidate-sync.service';

/**
 * `candidate.updated`: the whole current profile, so it is applied like a create when the candidate is
 * not in the ATS yet (an update may overtake its create).
 */
@Controller()
export class CandidateUpdatedHandler {
  constructor(
    private readonly candidates: CandidateSyncService,
    private readonly erased: ErasedCandidates,
  ) {}

  @EventPattern(RoutingKey.CandidateUpdated)
  async handle(@Payload() event: EventEnvelope<typeof RoutingKey.CandidateUpdated, CandidateDataDto>) {
    // Checked under each connector's lock (CandidateSyncService.sync): no statement of its own at the door.
    await this.erased.refusedInside(event, event.data.candidateId, () => this.candidates.sync(event));
  }
}
