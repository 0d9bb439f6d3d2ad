import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type ConnectorStatusChangedDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { OAuthStateStore } from '../oauth/oauth-state.store';
import { CredentialsService } from './credentials.service';

/** `connector.status_changed`, the backstop for deletion: a connector reported deleted loses its secrets. */
@Controller()
export class ConnectorStatusChangedHandler {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly states: OAuthStateStore,
  ) {}

  @EventPattern(RoutingKey.ConnectorStatusChanged)
  async handle(@Payload() event: EventEnvelope<string, ConnectorStatusChangedDto>): Promise<void> {
    if (event.data.reason !== 'deleted') return;
    if (await this.credentials.eraseFor(event.accountId, event.data.connectorId)) {
      await this.states.forget(event.data.connectorId);
    }
  }
}
