import { Controller, Logger } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type ConnectorStatusChangedDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { ConnectorDeletions } from '@connector/service-kit';
import { SyncRunRepository } from './sync-run.repository';

/**
 * `connector.status_changed`: a connector that becomes connected joins the schedule with a first sync right
 * away; one that is disabled, deleted or loses its authorization leaves it until it is connected again.
 * Events may arrive out of order: one older (`occurredAt`) than the last applied to the connector is ignored.
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
    const at = new Date(event.occurredAt);
    const apply = async (active: boolean) => {
      const applied = await this.runs.applyStatus(connectorId, event.accountId, active, at);
      if (!applied) {
        this.logger.log(
          `connector ${connectorId}: ${status} of ${event.occurredAt} is older than its last: ignored`,
        );
      }
      return applied;
    };
    switch (status) {
      case 'connected':
        if (await apply(true)) this.logger.log(`connector ${connectorId} is connected: scheduled`);
        return;
      case 'disabled':
      case 'auth_failed':
      case 'pending_authorization':
        // A deletion is final, however late it arrives: the connector leaves the schedule, and its runs and
        // vacancy state go after the retention period.
        if (!(await apply(false)) && event.data.reason === 'deleted') await this.runs.deactivate(connectorId);
        await this.deletions.record(event);
        return;
    }
  }
}
