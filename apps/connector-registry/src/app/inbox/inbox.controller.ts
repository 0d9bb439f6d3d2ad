import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, RoutingKey } from '@connector/contracts';
import { InboxService } from '@connector/service-kit';

/** One handler per message type this service takes; the domain work arrives in its own feature folder. */
@Controller()
export class InboxController {
  constructor(private readonly inbox: InboxService) {}

  @EventPattern(RoutingKey.RunCompleted)
  async onRunCompleted(@Payload() event: EventEnvelope): Promise<void> {
    await this.inbox.receive(event);
  }

  @EventPattern(RoutingKey.ConnectorStatusChanged)
  async onConnectorStatusChanged(@Payload() event: EventEnvelope): Promise<void> {
    await this.inbox.receive(event);
  }

  @EventPattern(RoutingKey.OperationFailed)
  async onOperationFailed(@Payload() event: EventEnvelope): Promise<void> {
    await this.inbox.receive(event);
  }

  @EventPattern(RoutingKey.OperationUnsupported)
  async onOperationUnsupported(@Payload() event: EventEnvelope): Promise<void> {
    await this.inbox.receive(event);
  }

  @EventPattern(RoutingKey.RunProgress)
  async onRunProgress(@Payload() event: EventEnvelope): Promise<void> {
    await this.inbox.receive(event);
  }
}
