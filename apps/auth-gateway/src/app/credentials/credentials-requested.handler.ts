import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type AtsAccess,
  type CredentialsRequestedDto,
  type EventEnvelope,
  RoutingKey,
} from '@connector/contracts';
import { CredentialsService } from './credentials.service';

/** `credentials.requested` (request-reply from the workers): an access token or session for a connector. */
@Controller()
export class CredentialsRequestedHandler {
  constructor(private readonly credentials: CredentialsService) {}

  @MessagePattern(RoutingKey.CredentialsRequested)
  handle(@Payload() request: EventEnvelope<string, CredentialsRequestedDto>): Promise<AtsAccess> {
    return this.credentials.getAccessFor(request.accountId, request.data.connectorId, request.data.rejected);
  }
}
