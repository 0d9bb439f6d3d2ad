import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type CredentialsSaveReply,
  type CredentialsSaveRequestDto,
  type EventEnvelope,
  RoutingKey,
} from '@connector/contracts';
import { ClientCredentialsFlow } from './client-credentials.flow';
import { CredentialsService } from './credentials.service';

/** How long a save waits in its account's line of connection tests before it is answered BUSY. */
const SAVE_WAIT_MS = 5_000;

/** `auth.credentials.save` (request-reply from connector-registry): verify client credentials, then seal them. */
@Controller()
export class CredentialsSaveHandler {
  constructor(
    private readonly credentials: CredentialsService,
    private readonly flow: ClientCredentialsFlow,
  ) {}

  @MessagePattern(RoutingKey.AuthCredentialsSave)
  async handle(
    @Payload() request: EventEnvelope<string, CredentialsSaveRequestDto>,
  ): Promise<CredentialsSaveReply> {
    const { connectorId } = request.data;
    const setup = this.flow.open(request);
    // A connector id already stored for another account is not this request's to overwrite.
    await this.credentials.requireOwner(request.accountId, connectorId);
    // A save waits its turn behind the account's other saves and tests (an admin creating several at once).
    const verified = await this.flow.verify(request.accountId, setup, SAVE_WAIT_MS);
    await this.credentials.store({
      connectorId,
      accountId: request.accountId,
      atsType: setup.type,
      baseUrl: verified.baseUrl,
      clientId: verified.clientId,
      secret: verified.secret,
      access: { value: verified.issued.access, expiresAt: verified.issued.expiresAt },
    });
    return { baseUrl: verified.baseUrl ?? '', openStatuses: verified.openStatuses };
  }
}
