import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type AuthorizationStartReply,
  type AuthorizationStartRequestDto,
  type EventEnvelope,
  RoutingKey,
} from '@connector/contracts';
import { AuthGatewayConfig } from '../auth-gateway.config';
import { OAuthService } from './oauth.service';

/** `auth.authorization.start` (request-reply from connector-registry): where an ATS-B login begins. */
@Controller()
export class AuthorizationStartHandler {
  constructor(
    private readonly oauth: OAuthService,
    @Inject(AuthGatewayConfig) private readonly config: AuthGatewayConfig,
  ) {}

  @MessagePattern(RoutingKey.AuthAuthorizationStart)
  handle(
    @Payload() request: EventEnvelope<string, AuthorizationStartRequestDto>,
  ): Promise<AuthorizationStartReply> {
    const { connectorId, adminId, browserNonce } = request.data;
    return this.oauth.start(
      { connectorId, accountId: request.accountId, adminId, browserNonce },
      this.config.OAUTH_STATE_TTL_SECONDS,
    );
  }
}
