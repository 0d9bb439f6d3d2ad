import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type CandidateDataDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { InboxService } from '@connector/service-kit';
import { CandidateSyncService } from './candidate-sync.service';

/**
 * `candidate.updated`: the whole current profile, so it is applied like a create when the candidate is
 * not in the ATS yet (an update may overtake its create).
 */
@Controller()
export class CandidateUpdatedHandler {
  constructor(
    private readonly inbox: InboxService,
    private readonly candidates: CandidateSyncService,
  ) {}

  @EventPattern(RoutingKey.CandidateUpdated)
  async handle(@Payload() event: EventEnvelope<typeof RoutingKey.CandidateUpdated, CandidateDataDto>) {
    await this.inbox.receive(event);
    await this.candidates.sync(event);
  }
}
