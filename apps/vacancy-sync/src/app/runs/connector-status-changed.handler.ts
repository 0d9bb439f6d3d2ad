import { Controller, Logger } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type ConnectorStatusChangedDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { ConnectorDeletions } from '@connector/service-kit';
import { SyncRunRepository } from './sync-run.repository';

/**
 * `connector.status_changed`: a connector that becomes connected joins the schedule with a first sync right
 * away; one that is disabled, deleted or loses its authorization leaves it until it is connected again.
 */
@Controller()
export class ConnectorStatusChangedHandler {
  private readonly logger = new Logger(ConnectorStatusChangedHandler.name);

  constructor(
    private readonly runs: SyncRunRepository,
    private readonly deletions: ConnectorDeletions,
  ) {}

  @EventPattern(RoutingKey.ConnectorStatusChanged)
  async handle(@Payload() event: EventEnvelope<string, ConnectorStatusChangedDto>): Promise<void> {
    const { connectorId, status } = event.data;
    switch (status) {
      case 'connected':
        await this.runs.registerConnector(connectorId, event.accountId, 0);
        this.logger.log(`connector ${connectorId} is connected: scheduled`);
        return;
      case 'disabled':
      case 'auth_failed':
      case 'pending_authorization':
        await this.runs.deactivate(connectorId);
        // A deleted one's runs and vacancy state go after the retention period.
        await this.deletions.record(event);
        return;
    }
  }
}
