import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type AuthorizationCompleteReply,
  type AuthorizationCompleteRequestDto,
  type EventEnvelope,
  RoutingKey,
} from '@connector/contracts';
import { OAuthService } from './oauth.service';

/** `auth.authorization.complete` (request-reply from connector-registry): the ATS-B login came back. */
@Controller()
export class AuthorizationCompleteHandler {
  constructor(private readonly oauth: OAuthService) {}

  @MessagePattern(RoutingKey.AuthAuthorizationComplete)
  handle(
    @Payload() request: EventEnvelope<string, AuthorizationCompleteRequestDto>,
  ): Promise<AuthorizationCompleteReply> {
    const { code, state, browserNonce } = request.data;
    return this.oauth.complete(code, state, browserNonce);
  }
}
