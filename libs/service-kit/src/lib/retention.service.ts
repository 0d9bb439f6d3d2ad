import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { ConnectorStatusChangedDto, EventEnvelope } from '@connector/contracts';
import { RetentionJob, type RetentionRule } from '@connector/persistence';
import { RECORD_DELETED_CONNECTOR } from './connector-deletions.sql';

export const RETENTION_OPTIONS = Symbol('RETENTION_OPTIONS');

export interface RetentionOptions {
  rules: RetentionRule[];
  intervalMs: number;
}

/** The service's retention rules, run in the background of every process (see `purge`: replicas share it). */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly job: RetentionJob;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Inject(RETENTION_OPTIONS) private readonly options: RetentionOptions,
  ) {
    this.job = new RetentionJob(dataSource, options.rules);
  }

  onApplicationBootstrap(): void {
    this.job.start(this.options.intervalMs);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }

  runOnce(now?: Date): Promise<Record<string, number>> {
    return this.job.runOnce(now);
  }
}

/**
 * A worker learns that a connector was deleted (`connector.status_changed`, reason `deleted`): its data here
 * goes once DELETED_CONNECTOR_RETENTION_DAYS have passed. Needs `DeletedConnectorEntity` and its migration.
 */
@Injectable()
export class ConnectorDeletions {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async record(event: EventEnvelope<string, ConnectorStatusChangedDto>): Promise<void> {
    if (event.data.reason !== 'deleted') return;
    await RECORD_DELETED_CONNECTOR.rows(this.dataSource, { connectorId: event.data.connectorId });
  }
}
