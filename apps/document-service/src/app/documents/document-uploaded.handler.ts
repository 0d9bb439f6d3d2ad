import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type DocumentDataDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { ErasedCandidates } from '@connector/service-kit';
import { DocumentSyncService } from './document-sync.service';

/** `document.uploaded` (validated by the transport): the file into every connector of the account. */
@Controller()
export class DocumentUploadedHandler {
  constructor(
    private readonly documents: DocumentSyncService,
    private readonly erased: ErasedCandidates,
  ) {}

  @EventPattern(RoutingKey.DocumentUploaded)
  async handle(@Payload() event: EventEnvelope<typeof RoutingKey.DocumentUploaded, DocumentDataDto>) {
    await this.erased.unlessErased(event, event.data.candidateId, () => this.documents.sync(event));
  }
}
