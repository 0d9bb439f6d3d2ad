import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type ApplicationSyncedDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { ActivityService } from './activity.service';

/** `application.synced`: one record written to the connector's ATS that day, counted once per event. */
@Controller()
export class ApplicationSyncedHandler {
  constructor(private readonly activity: ActivityService) {}

  @EventPattern(RoutingKey.ApplicationSynced)
  async handle(@Payload() event: EventEnvelope<string, ApplicationSyncedDto>): Promise<void> {
    await this.activity.recordWritten(event);
  }
}
