import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type ConnectorStatusChangedDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { ConnectorsService } from './connectors.service';

/**
 * `connector.status_changed` from auth-gateway and the workers. Idempotent, so a redelivery is applied again
 * rather than skipped (a first attempt may have failed).
 */
@Controller()
export class ConnectorStatusChangedHandler {
  constructor(private readonly connectors: ConnectorsService) {}

  @EventPattern(RoutingKey.ConnectorStatusChanged)
  async handle(@Payload() event: EventEnvelope<string, ConnectorStatusChangedDto>): Promise<void> {
    await this.connectors.onStatusChanged(event);
  }
}
