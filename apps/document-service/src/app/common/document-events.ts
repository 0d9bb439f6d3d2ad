import { Injectable } from '@nestjs/common';
import {
  createEvent,
  type DocumentSyncedDto,
  type EventEnvelope,
  Exchange,
  RoutingKey,
} from '@connector/contracts';
import { MessagePublisher } from '@connector/messaging';

/** The events document-service publishes to `connector.events`, each carrying its cause's correlation id. */
@Injectable()
export class DocumentEvents {
  constructor(private readonly publisher: MessagePublisher) {}

  documentSynced(cause: EventEnvelope, data: DocumentSyncedDto): Promise<void> {
    return this.publisher.publish(
      Exchange.ConnectorEvents,
      createEvent(RoutingKey.DocumentSynced, cause.accountId, data, {
        correlationId: cause.correlationId ?? cause.id,
      }),
    );
  }
}
