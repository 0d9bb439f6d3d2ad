import { Controller } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import {
  type AtsAccess,
  type ConnectionTestReply,
  type ConnectionTestRequestDto,
  type ConnectorStatusChangedDto,
  type CredentialsEraseRequestDto,
  type CredentialsRequestedDto,
  type CredentialsSaveReply,
  type CredentialsSaveRequestDto,
  type EventEnvelope,
  RoutingKey,
} from '@connector/contracts';
import { OAuthStateStore } from '../oauth/oauth-state.store';
import { AtsASetupService } from './ats-a-setup.service';
import { CredentialsService } from './credentials.service';

/** Requests about a connector's credentials (request-reply over RabbitMQ). */
@Controller()
export class CredentialsController {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly atsA: AtsASetupService,
    private readonly states: OAuthStateStore,
  ) {}

  @MessagePattern(RoutingKey.CredentialsRequested)
  access(@Payload() request: EventEnvelope<string, CredentialsRequestedDto>): Promise<AtsAccess> {
    return this.credentials.getAccessFor(request.accountId, request.data.connectorId, request.data.rejected);
  }

  @MessagePattern(RoutingKey.AuthConnectionTest)
  test(@Payload() request: EventEnvelope<string, ConnectionTestRequestDto>): Promise<ConnectionTestReply> {
    return this.atsA.test(request.data.config, request.data.openStatuses);
  }

  @MessagePattern(RoutingKey.AuthCredentialsSave)
  async save(
    @Payload() request: EventEnvelope<string, CredentialsSaveRequestDto>,
  ): Promise<CredentialsSaveReply> {
    const { connectorId, config, openStatuses } = request.data;
    // A connector id already stored for another account is not this request's to overwrite.
    await this.credentials.requireOwner(request.accountId, connectorId);
    const verified = await this.atsA.verify(config, openStatuses);
    const expiresAt = new Date(Date.now() + verified.expiresInSeconds * 1000 - 60_000);
    await this.credentials.store({
      connectorId,
      accountId: request.accountId,
      atsType: 'ats-a',
      baseUrl: verified.baseUrl,
      clientId: config.clientId,
      secret: config.clientSecret,
      access: {
        value: { accessToken: verified.accessToken, accessTokenExpiresAt: expiresAt.toISOString() },
        expiresAt,
      },
    });
    return { baseUrl: verified.baseUrl, openStatuses: verified.openStatuses };
  }

  @MessagePattern(RoutingKey.AuthCredentialsErase)
  async erase(
    @Payload() request: EventEnvelope<string, CredentialsEraseRequestDto>,
  ): Promise<{ erased: true }> {
    if (await this.credentials.eraseFor(request.accountId, request.data.connectorId)) {
      await this.states.forget(request.data.connectorId);
    }
    return { erased: true };
  }

  /** The backstop for deletion: a connector the registry reports deleted loses its secrets here too. */
  @EventPattern(RoutingKey.ConnectorStatusChanged)
  async statusChanged(@Payload() event: EventEnvelope<string, ConnectorStatusChangedDto>): Promise<void> {
    if (event.data.reason !== 'deleted') return;
    if (await this.credentials.eraseFor(event.accountId, event.data.connectorId)) {
      await this.states.forget(event.data.connectorId);
    }
  }
}
