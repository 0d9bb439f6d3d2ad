import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type ConnectorStatusChangedDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { ConnectorDeletions } from '@connector/service-kit';

/** `connector.status_changed`: a deleted connector is recorded; its links here go after the retention period. */
@Controller()
export class ConnectorStatusHandler {
  constructor(private readonly deletions: ConnectorDeletions) {}

  @EventPattern(RoutingKey.ConnectorStatusChanged)
  async handle(@Payload() event: EventEnvelope<string, ConnectorStatusChangedDto>): Promise<void> {
    await this.deletions.record(event);
  }
}
