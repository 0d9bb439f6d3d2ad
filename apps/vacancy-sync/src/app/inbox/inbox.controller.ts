import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, RoutingKey } from '@connector/contracts';
import { InboxService } from '@connector/service-kit';

/** One handler per message type this service takes; the domain work arrives in its own feature folder. */
@Controller()
export class InboxController {
  constructor(private readonly inbox: InboxService) {}

  @EventPattern(RoutingKey.RunRequested)
  async onRunRequested(@Payload() event: EventEnvelope): Promise<void> {
    await this.inbox.receive(event);
  }
}
