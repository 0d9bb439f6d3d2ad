import { Controller, Inject, Logger } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { ConnectorDirectory } from '@connector/ats-client-factory';
import { type ConnectorChangedDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { RpcError } from '@connector/messaging';
import { EventFeedService } from '../events/event-feed.service';
import { VacancySyncConfig } from '../vacancy-sync.config';
import { scheduleForOptions } from './options-schedule';
import { SyncRunRepository } from './sync-run.repository';

/**
 * `connector.changed` on vacancy-sync's own queue (one process per change, besides every process's broadcast
 * that drops its cached snapshot): the options a schedule is kept by take effect at once, in Postgres, for every
 * process. A shorter run interval or event poll period brings the next run or read to within one new period,
 * instead of after the old one.
 */
@Controller()
export class ConnectorChangedHandler {
  private readonly logger = new Logger(ConnectorChangedHandler.name);

  constructor(
    private readonly runs: SyncRunRepository,
    private readonly events: EventFeedService,
    private readonly directory: ConnectorDirectory,
    @Inject(VacancySyncConfig) private readonly config: VacancySyncConfig,
  ) {}

  @EventPattern(RoutingKey.ConnectorChanged)
  async handle(@Payload() event: EventEnvelope<string, ConnectorChangedDto>): Promise<void> {
    const { connectorId, version } = event.data;
    let connector;
    try {
      // Fresh: the change was saved before it was announced, and this process may not have heard of it yet.
      connector = await this.directory.get(connectorId, event.accountId, { fresh: true });
    } catch (error) {
      // Deleted: connector.status_changed takes it off the schedule.
      if (error instanceof RpcError && error.code === 'NOT_FOUND') return;
      throw error;
    }
    const feed = await this.events.feedOf(connectorId);
    const schedule = scheduleForOptions({
      connectorId,
      options: connector.options,
      feedMode: feed?.mode,
      minPollSeconds: this.config.EVENT_POLL_MIN_SECONDS,
      now: new Date(),
    });
    const applied = await this.runs.applyOptions({
      connectorId,
      version: Math.max(connector.version ?? 0, version),
      ...schedule,
    });
    if (applied) {
      this.logger.log(
        `connector ${connectorId}: options of version ${version} applied (runs every ` +
          `${schedule.intervalSeconds} s${feed ? `, events read every ${schedule.pollSeconds} s` : ''})`,
      );
    }
  }
}
