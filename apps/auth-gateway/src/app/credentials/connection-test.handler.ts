import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type ConnectionTestReply,
  type ConnectionTestRequestDto,
  type EventEnvelope,
  RoutingKey,
} from '@connector/contracts';
import { AtsASetupService } from './ats-a-setup.service';

/** `auth.connection.test` (request-reply from connector-registry): do these ATS-A credentials work? */
@Controller()
export class ConnectionTestHandler {
  constructor(private readonly atsA: AtsASetupService) {}

  @MessagePattern(RoutingKey.AuthConnectionTest)
  handle(@Payload() request: EventEnvelope<string, ConnectionTestRequestDto>): Promise<ConnectionTestReply> {
    return this.atsA.test(request.accountId, request.data.config, request.data.openStatuses);
  }
}
