import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Records (candidates, applications, documents) a connector wrote to its ATS on one UTC day, and the totals
 * of that day's runs the retention job deleted (the rest are counted from the runs still kept).
 */
@Entity('connector_activity')
@Index('ix_connector_activity_day', ['day'])
export class ConnectorActivityEntity {
  @PrimaryColumn('text', { name: 'connector_id' }) connectorId!: string;
  /** `YYYY-MM-DD`, UTC. */
  @PrimaryColumn('date') day!: string;
  @Column('int', { name: 'records_written', default: 0 }) recordsWritten!: number;
  @Column('int', { name: 'deleted_runs_api_calls', default: 0 }) deletedRunsApiCalls!: number;
  @Column('int', { name: 'deleted_runs_published', default: 0 }) deletedRunsPublished!: number;
  @Column('int', { name: 'deleted_runs_failed', default: 0 }) deletedRunsFailed!: number;
}

/** An event already counted in connector_activity; kept for 15 days, longer than any redelivery. */
@Entity('connector_activity_event')
@Index('ix_connector_activity_event_connector_day', ['connectorId', 'day'])
export class ConnectorActivityEventEntity {
  @PrimaryColumn('uuid', { name: 'event_id' }) eventId!: string;
  @Column('text', { name: 'connector_id' }) connectorId!: string;
  @Column('date') day!: string;
}
