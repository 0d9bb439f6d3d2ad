import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type DocumentSyncedDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { ActivityService } from './activity.service';

/** `document.synced`: an uploaded document is a record written that day; a skipped one wrote nothing. */
@Controller()
export class DocumentSyncedHandler {
  constructor(private readonly activity: ActivityService) {}

  @EventPattern(RoutingKey.DocumentSynced)
  async handle(@Payload() event: EventEnvelope<string, DocumentSyncedDto>): Promise<void> {
    if (event.data.action === 'uploaded') await this.activity.recordWritten(event);
  }
}
