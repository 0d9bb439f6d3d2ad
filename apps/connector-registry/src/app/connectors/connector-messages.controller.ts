import { Controller } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import {
  type ConnectorLookupDto,
  type ConnectorsByAccountDto,
  type ConnectorSnapshot,
  type ConnectorStatusChangedDto,
  type EventEnvelope,
  RoutingKey,
} from '@connector/contracts';
import { InboxService } from '@connector/service-kit';
import { ConnectorsService } from './connectors.service';

/** The messages about connectors: status reports, and workers' lookups (request-reply). */
@Controller()
export class ConnectorMessagesController {
  constructor(
    private readonly connectors: ConnectorsService,
    private readonly inbox: InboxService,
  ) {}

  /** Idempotent, so a redelivery is applied again rather than skipped (a first attempt may have failed). */
  @EventPattern(RoutingKey.ConnectorStatusChanged)
  async onStatusChanged(@Payload() event: EventEnvelope<string, ConnectorStatusChangedDto>): Promise<void> {
    await this.inbox.receive(event);
    await this.connectors.onStatusChanged(event);
  }

  @MessagePattern(RoutingKey.ConnectorLookup)
  lookup(@Payload() request: EventEnvelope<string, ConnectorLookupDto>): Promise<ConnectorSnapshot> {
    return this.connectors.snapshot(request.data.connectorId);
  }

  @MessagePattern(RoutingKey.ConnectorsByAccount)
  byAccount(@Payload() request: EventEnvelope<string, ConnectorsByAccountDto>): Promise<ConnectorSnapshot[]> {
    return this.connectors.snapshotsOf(request.data.accountId);
  }
}
