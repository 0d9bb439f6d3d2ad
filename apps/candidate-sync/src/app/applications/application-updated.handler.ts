import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type ApplicationDataDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { ErasedCandidates } from '@connector/service-kit';
import { ApplicationSyncService } from './application-sync.service';

/** `application.updated` (validated by the transport): the changed answers go to each vacancy's connector. */
@Controller()
export class ApplicationUpdatedHandler {
  constructor(
    private readonly applications: ApplicationSyncService,
    private readonly erased: ErasedCandidates,
  ) {}

  @EventPattern(RoutingKey.ApplicationUpdated)
  async handle(@Payload() event: EventEnvelope<typeof RoutingKey.ApplicationUpdated, ApplicationDataDto>) {
    // Checked under each vacancy's lock (ApplicationSyncService.sync): no statement of its own at the door.
    await this.erased.refusedInside(event, event.data.candidateId, () => this.applications.sync(event));
  }
}
