import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type AuthorizationStartReply,
  type AuthorizationStartRequestDto,
  type EventEnvelope,
  RoutingKey,
} from '@connector/contracts';
import { AuthGatewayConfig } from '../auth-gateway.config';
import { InteractiveLoginFlow } from './interactive-login.flow';

/** `auth.authorization.start` (request-reply from connector-registry): where an interactive login begins. */
@Controller()
export class AuthorizationStartHandler {
  constructor(
    private readonly logins: InteractiveLoginFlow,
    @Inject(AuthGatewayConfig) private readonly config: AuthGatewayConfig,
  ) {}

  @MessagePattern(RoutingKey.AuthAuthorizationStart)
  handle(
    @Payload() request: EventEnvelope<string, AuthorizationStartRequestDto>,
  ): Promise<AuthorizationStartReply> {
    const { type, connectorId, adminId, browserNonce } = request.data;
    return this.logins.start(
      type,
      { connectorId, accountId: request.accountId, adminId, browserNonce },
      this.config.OAUTH_STATE_TTL_SECONDS,
    );
  }
}
