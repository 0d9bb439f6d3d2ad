import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A connector vacancy-sync syncs: its schedule, its last successes and its run lease. */
@Entity('sync_connector')
@Index('ix_sync_connector_due', ['nextRunAt'], { where: '"active"' })
@Index('ix_sync_connector_first_due', ['nextRunAt'], {
  where: '"active" AND "last_success_started_at" IS NULL',
})
@Index('ix_sync_connector_system_leased', ['systemKey'], { where: '"lease_owner" IS NOT NULL' })
export class SyncConnectorEntity {
  @PrimaryColumn('text', { name: 'connector_id' }) connectorId!: string;
  @Column('text', { name: 'account_id' }) accountId!: string;
  @Column('integer', { name: 'interval_seconds', default: 900 }) intervalSeconds!: number;
  @Column('timestamptz', { name: 'next_run_at' }) nextRunAt!: Date;
  @Column('boolean', { default: true }) active!: boolean;
  @Column('timestamptz', { name: 'last_success_started_at', nullable: true })
  lastSuccessStartedAt!: Date | null;
  @Column('timestamptz', { name: 'last_full_started_at', nullable: true }) lastFullStartedAt!: Date | null;
  /** The process running the connector's head run, while `lease_until` has not passed. */
  @Column('text', { name: 'lease_owner', nullable: true }) leaseOwner!: string | null;
  @Column('timestamptz', { name: 'lease_until', nullable: true }) leaseUntil!: Date | null;
  /** The customer system its ATS calls go to (the source's `systemOf`), learnt at its first run. */
  @Column('text', { name: 'system_key', nullable: true }) systemKey!: string | null;
  /** When the last `connector.status_changed` applied to it happened (its `occurredAt`): older ones are ignored. */
  @Column('timestamptz', { name: 'status_changed_at', nullable: true }) statusChangedAt!: Date | null;
  /** The connector version (`connector.changed`) whose options set its interval and event poll period. */
  @Column('integer', { name: 'options_version', default: 0 }) optionsVersion!: number;
}
