import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type ConnectionTestReply,
  type ConnectionTestRequestDto,
  type EventEnvelope,
  RoutingKey,
} from '@connector/contracts';
import { RequestSeal } from '@connector/service-kit';
import { AtsASetupService } from './ats-a-setup.service';
import { openSealedConfig } from './sealed-request';

/** `auth.connection.test` (request-reply from connector-registry): do these ATS-A credentials work? */
@Controller()
export class ConnectionTestHandler {
  constructor(
    private readonly atsA: AtsASetupService,
    private readonly seal: RequestSeal,
  ) {}

  @MessagePattern(RoutingKey.AuthConnectionTest)
  handle(@Payload() request: EventEnvelope<string, ConnectionTestRequestDto>): Promise<ConnectionTestReply> {
    const config = openSealedConfig(this.seal, request);
    return this.atsA.test(request.accountId, config, request.data.openStatuses);
  }
}
