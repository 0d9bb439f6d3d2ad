import { Injectable } from '@nestjs/common';
import {
  type ApplicationSyncedDto,
  type CandidateSyncedDto,
  createEvent,
  type EventEnvelope,
  Exchange,
  type OperationUnsupportedDto,
  RoutingKey,
} from '@connector/contracts';
import { MessagePublisher } from '@connector/messaging';

/** The events candidate-sync publishes to `connector.events`, each carrying its cause's correlation id. */
@Injectable()
export class SyncedEvents {
  constructor(private readonly publisher: MessagePublisher) {}

  candidateSynced(cause: EventEnvelope, data: CandidateSyncedDto): Promise<void> {
    return this.publish(cause, RoutingKey.CandidateSynced, data);
  }

  applicationSynced(cause: EventEnvelope, data: ApplicationSyncedDto): Promise<void> {
    return this.publish(cause, RoutingKey.ApplicationSynced, data);
  }

  unsupported(cause: EventEnvelope, data: OperationUnsupportedDto): Promise<void> {
    return this.publish(cause, RoutingKey.OperationUnsupported, data);
  }

  private publish(cause: EventEnvelope, type: string, data: object): Promise<void> {
    return this.publisher.publish(
      Exchange.ConnectorEvents,
      createEvent(type, cause.accountId, data, { correlationId: cause.correlationId ?? cause.id }),
    );
  }
}
