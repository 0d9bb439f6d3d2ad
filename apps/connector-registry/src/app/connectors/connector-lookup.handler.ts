import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type ConnectorLookupDto,
  type ConnectorSnapshot,
  type EventEnvelope,
  RoutingKey,
} from '@connector/contracts';
import { ConnectorsService } from './connectors.service';

/** `connector.lookup.requested` (request-reply from the workers): one connector's snapshot. */
@Controller()
export class ConnectorLookupHandler {
  constructor(private readonly connectors: ConnectorsService) {}

  @MessagePattern(RoutingKey.ConnectorLookup)
  handle(@Payload() request: EventEnvelope<string, ConnectorLookupDto>): Promise<ConnectorSnapshot> {
    return this.connectors.snapshot(request.data.connectorId);
  }
}
