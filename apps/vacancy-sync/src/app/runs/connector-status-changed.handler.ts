import { Controller, Logger } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { ConnectorDirectory } from '@connector/ats-client-factory';
import { type ConnectorStatusChangedDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { ConnectorDeletions } from '@connector/service-kit';
import { EventFeedService } from '../events/event-feed.service';
import { VacancySources } from '../sources/vacancy-sources';
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
    private readonly directory: ConnectorDirectory,
    private readonly sources: VacancySources,
    private readonly events: EventFeedService,
  ) {}

  @EventPattern(RoutingKey.ConnectorStatusChanged)
  async handle(@Payload() event: EventEnvelope<string, ConnectorStatusChangedDto>): Promise<void> {
    const { connectorId, status } = event.data;
    const at = new Date(event.occurredAt);
    const apply = async (active: boolean, systemKey?: string) => {
      const applied = await this.runs.applyStatus(connectorId, event.accountId, active, at, systemKey);
      if (!applied) {
        this.logger.log(
          `connector ${connectorId}: ${status} of ${event.occurredAt} is older than its last: ignored`,
        );
      }
      return applied;
    };
    switch (status) {
      case 'connected':
        if (await apply(true, await this.systemOf(connectorId, event.accountId))) {
          this.logger.log(`connector ${connectorId} is connected: scheduled`);
          await this.events.connected(connectorId, event.accountId);
        }
        return;
      case 'disabled':
      case 'auth_failed':
      case 'pending_authorization': {
        // A deletion is final, however late it arrives: the connector leaves the schedule, and its runs and
        // vacancy state go after the retention period.
        const applied = await apply(false);
        if (!applied && event.data.reason === 'deleted') await this.runs.deactivate(connectorId);
        // Disabled or deleted: its event subscription ends (a connector waiting for authorization keeps it).
        if (status === 'disabled' && (applied || event.data.reason === 'deleted'))
          await this.events.ended(connectorId, event.accountId);
        await this.deletions.record(event);
        return;
      }
    }
  }

  /**
   * The customer system of a connector, known before its first run so that its first sync already counts
   * against the system's run cap; unknown (learnt at its first run) when the registry does not answer.
   */
  private async systemOf(connectorId: string, accountId: string): Promise<string | undefined> {
    try {
      const connector = await this.directory.get(connectorId, accountId);
      return this.sources.for(connector.type).systemOf(connector);
    } catch (error) {
      this.logger.warn(`connector ${connectorId}: its system is learnt at its first run: ${String(error)}`);
      return undefined;
    }
  }
}
