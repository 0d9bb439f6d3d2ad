import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type ConnectorsByAccountDto,
  type ConnectorSnapshot,
  type EventEnvelope,
  RoutingKey,
} from '@connector/contracts';
import { ConnectorsService } from './connectors.service';

/** `connectors.by-account.requested` (request-reply from the workers): every connector of an account. */
@Controller()
export class ConnectorsByAccountHandler {
  constructor(private readonly connectors: ConnectorsService) {}

  @MessagePattern(RoutingKey.ConnectorsByAccount)
  handle(@Payload() request: EventEnvelope<string, ConnectorsByAccountDto>): Promise<ConnectorSnapshot[]> {
    return this.connectors.snapshotsOf(request.data.accountId);
  }
}
