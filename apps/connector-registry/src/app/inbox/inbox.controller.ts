import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, RoutingKey } from '@connector/contracts';
import { InboxService } from '@connector/service-kit';

/**
 * Messages recorded but not acted on yet: failures and unsupported operations, which the admin page will
 * list in a later issue. Status and run messages are handled in their feature folders.
 */
@Controller()
export class InboxController {
  constructor(private readonly inbox: InboxService) {}

  @EventPattern(RoutingKey.OperationFailed)
  async onOperationFailed(@Payload() event: EventEnvelope): Promise<void> {
    await this.inbox.receive(event);
  }

  @EventPattern(RoutingKey.OperationUnsupported)
  async onOperationUnsupported(@Payload() event: EventEnvelope): Promise<void> {
    await this.inbox.receive(event);
  }
}
