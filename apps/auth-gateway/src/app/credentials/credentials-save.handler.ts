import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type CredentialsSaveReply,
  type CredentialsSaveRequestDto,
  type EventEnvelope,
  RoutingKey,
} from '@connector/contracts';
import { RequestSeal } from '@connector/service-kit';
import { AtsASetupService } from './ats-a-setup.service';
import { CredentialsService } from './credentials.service';
import { openSealedConfig } from './sealed-request';

/** How long a save waits in its account's line of connection tests before it is answered BUSY. */
const SAVE_WAIT_MS = 5_000;

/** `auth.credentials.save` (request-reply from connector-registry): verify ATS-A credentials, then seal them. */
@Controller()
export class CredentialsSaveHandler {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly atsA: AtsASetupService,
    private readonly seal: RequestSeal,
  ) {}

  @MessagePattern(RoutingKey.AuthCredentialsSave)
  async handle(
    @Payload() request: EventEnvelope<string, CredentialsSaveRequestDto>,
  ): Promise<CredentialsSaveReply> {
    const { connectorId, openStatuses } = request.data;
    const config = openSealedConfig(this.seal, request);
    // A connector id already stored for another account is not this request's to overwrite.
    await this.credentials.requireOwner(request.accountId, connectorId);
    // A save waits its turn behind the account's other saves and tests (an admin creating several at once).
    const verified = await this.atsA.verify(request.accountId, config, openStatuses, SAVE_WAIT_MS);
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
}
