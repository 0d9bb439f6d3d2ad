import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type ConnectionTestReply,
  type ConnectionTestRequestDto,
  type EventEnvelope,
  RoutingKey,
} from '@connector/contracts';
import { ClientCredentialsFlow } from './client-credentials.flow';

/** `auth.connection.test` (request-reply from connector-registry): do these credentials work at their ATS? */
@Controller()
export class ConnectionTestHandler {
  constructor(private readonly flow: ClientCredentialsFlow) {}

  @MessagePattern(RoutingKey.AuthConnectionTest)
  handle(@Payload() request: EventEnvelope<string, ConnectionTestRequestDto>): Promise<ConnectionTestReply> {
    return this.flow.test(request.accountId, this.flow.open(request));
  }
}
