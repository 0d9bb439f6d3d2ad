import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type CandidateDataDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { InboxService } from '@connector/service-kit';
import { CandidateSyncService } from './candidate-sync.service';

/** `candidate.created` (validated by the transport): the candidate into every connector of the account. */
@Controller()
export class CandidateCreatedHandler {
  constructor(
    private readonly inbox: InboxService,
    private readonly candidates: CandidateSyncService,
  ) {}

  @EventPattern(RoutingKey.CandidateCreated)
  async handle(@Payload() event: EventEnvelope<typeof RoutingKey.CandidateCreated, CandidateDataDto>) {
    await this.inbox.receive(event);
    await this.candidates.sync(event);
  }
}
