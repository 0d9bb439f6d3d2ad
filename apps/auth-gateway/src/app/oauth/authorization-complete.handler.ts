import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type AuthorizationCompleteReply,
  type AuthorizationCompleteRequestDto,
  type EventEnvelope,
  RoutingKey,
} from '@connector/contracts';
import { InteractiveLoginFlow } from './interactive-login.flow';

/** `auth.authorization.complete` (request-reply from connector-registry): an interactive login came back. */
@Controller()
export class AuthorizationCompleteHandler {
  constructor(private readonly logins: InteractiveLoginFlow) {}

  @MessagePattern(RoutingKey.AuthAuthorizationComplete)
  handle(
    @Payload() request: EventEnvelope<string, AuthorizationCompleteRequestDto>,
  ): Promise<AuthorizationCompleteReply> {
    const { type, code, state, browserNonce } = request.data;
    return this.logins.complete(type, code, state, browserNonce);
  }
}
