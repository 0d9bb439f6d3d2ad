import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type CredentialsEraseRequestDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { OAuthStateStore } from '../oauth/oauth-state.store';
import { CredentialsService } from './credentials.service';

/** `auth.credentials.erase` (request-reply from connector-registry, on delete): the connector's secrets go. */
@Controller()
export class CredentialsEraseHandler {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly states: OAuthStateStore,
  ) {}

  @MessagePattern(RoutingKey.AuthCredentialsErase)
  async handle(
    @Payload() request: EventEnvelope<string, CredentialsEraseRequestDto>,
  ): Promise<{ erased: true }> {
    if (await this.credentials.eraseFor(request.accountId, request.data.connectorId)) {
      await this.states.forget(request.data.connectorId);
    }
    return { erased: true };
  }
}
