import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type CandidateSyncedDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { ActivityService } from './activity.service';

/** `candidate.synced`: one record written to the connector's ATS that day, counted once per event. */
@Controller()
export class CandidateSyncedHandler {
  constructor(private readonly activity: ActivityService) {}

  @EventPattern(RoutingKey.CandidateSynced)
  async handle(@Payload() event: EventEnvelope<string, CandidateSyncedDto>): Promise<void> {
    await this.activity.recordWritten(event);
  }
}
