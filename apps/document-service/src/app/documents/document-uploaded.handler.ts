import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type DocumentDataDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { InboxService } from '@connector/service-kit';
import { DocumentSyncService } from './document-sync.service';

/** `document.uploaded` (validated by the transport): the file into every connector of the account. */
@Controller()
export class DocumentUploadedHandler {
  constructor(
    private readonly inbox: InboxService,
    private readonly documents: DocumentSyncService,
  ) {}

  @EventPattern(RoutingKey.DocumentUploaded)
  async handle(@Payload() event: EventEnvelope<typeof RoutingKey.DocumentUploaded, DocumentDataDto>) {
    await this.inbox.receive(event);
    await this.documents.sync(event);
  }
}
