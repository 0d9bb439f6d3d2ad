import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, RoutingKey } from '@connector/contracts';
import { InboxService } from './inbox.service';

/** One handler per message type this service takes; the domain work arrives in its own feature folder. */
@Controller()
export class InboxController {
  constructor(private readonly inbox: InboxService) {}

  @EventPattern(RoutingKey.RunCompleted)
  onRunCompleted(@Payload() event: EventEnvelope): Promise<void> {
    return this.inbox.receive(event);
  }

  @EventPattern(RoutingKey.ConnectorStatusChanged)
  onConnectorStatusChanged(@Payload() event: EventEnvelope): Promise<void> {
    return this.inbox.receive(event);
  }

  @EventPattern(RoutingKey.OperationFailed)
  onOperationFailed(@Payload() event: EventEnvelope): Promise<void> {
    return this.inbox.receive(event);
  }

  @EventPattern(RoutingKey.OperationUnsupported)
  onOperationUnsupported(@Payload() event: EventEnvelope): Promise<void> {
    return this.inbox.receive(event);
  }

  @EventPattern(RoutingKey.RunProgress)
  onRunProgress(@Payload() event: EventEnvelope): Promise<void> {
    return this.inbox.receive(event);
  }
}
