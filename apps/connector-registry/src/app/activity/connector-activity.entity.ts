import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Records (candidates, applications, documents) a connector wrote to its ATS on one UTC day. */
@Entity('connector_activity')
export class ConnectorActivityEntity {
  @PrimaryColumn('text', { name: 'connector_id' }) connectorId!: string;
  /** `YYYY-MM-DD`, UTC. */
  @PrimaryColumn('date') day!: string;
  @Column('int', { name: 'records_written', default: 0 }) recordsWritten!: number;
}

/** An event already counted in connector_activity; kept for 15 days, longer than any redelivery. */
@Entity('connector_activity_event')
@Index('ix_connector_activity_event_connector_day', ['connectorId', 'day'])
export class ConnectorActivityEventEntity {
  @PrimaryColumn('uuid', { name: 'event_id' }) eventId!: string;
  @Column('text', { name: 'connector_id' }) connectorId!: string;
  @Column('date') day!: string;
}
