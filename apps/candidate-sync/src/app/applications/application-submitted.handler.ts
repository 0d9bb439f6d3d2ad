import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type ApplicationDataDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { ErasedCandidates } from '@connector/service-kit';
import { ApplicationSyncService } from './application-sync.service';

/** `application.submitted` (validated by the transport): into the connector of each vacancy it names. */
@Controller()
export class ApplicationSubmittedHandler {
  constructor(
    private readonly applications: ApplicationSyncService,
    private readonly erased: ErasedCandidates,
  ) {}

  @EventPattern(RoutingKey.ApplicationSubmitted)
  async handle(@Payload() event: EventEnvelope<typeof RoutingKey.ApplicationSubmitted, ApplicationDataDto>) {
    // Checked under each vacancy's lock (ApplicationSyncService.sync): no statement of its own at the door.
    await this.erased.refusedInside(event, event.data.candidateId, () => this.applications.sync(event));
  }
}
