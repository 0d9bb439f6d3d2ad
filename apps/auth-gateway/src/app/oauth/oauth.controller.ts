import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type AuthorizationCompleteReply,
  type AuthorizationCompleteRequestDto,
  type AuthorizationStartReply,
  type AuthorizationStartRequestDto,
  type EventEnvelope,
  RoutingKey,
} from '@connector/contracts';
import { AuthGatewayConfig } from '../auth-gateway.config';
import { OAuthService } from './oauth.service';

/** ATS-B logins, asked for by connector-registry (request-reply over RabbitMQ). */
@Controller()
export class OAuthController {
  constructor(
    private readonly oauth: OAuthService,
    @Inject(AuthGatewayConfig) private readonly config: AuthGatewayConfig,
  ) {}

  @MessagePattern(RoutingKey.AuthAuthorizationStart)
  start(
    @Payload() request: EventEnvelope<string, AuthorizationStartRequestDto>,
  ): Promise<AuthorizationStartReply> {
    const { connectorId, adminId, browserNonce } = request.data;
    return this.oauth.start(
      { connectorId, accountId: request.accountId, adminId, browserNonce },
      this.config.OAUTH_STATE_TTL_SECONDS,
    );
  }

  @MessagePattern(RoutingKey.AuthAuthorizationComplete)
  complete(
    @Payload() request: EventEnvelope<string, AuthorizationCompleteRequestDto>,
  ): Promise<AuthorizationCompleteReply> {
    const { code, state, browserNonce } = request.data;
    return this.oauth.complete(code, state, browserNonce);
  }
}
