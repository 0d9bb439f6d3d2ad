import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  UpdateDateColumn,
  VersionColumn,
} from 'typeorm';
import type { ConnectorStatus } from '@connector/contracts';

/** A customer's link to one ATS account. Secrets never live here (auth-gateway keeps them, encrypted). */
@Entity('connector')
@Index('ix_connector_account_created', ['accountId', 'createdAt'])
// The retention job finds connectors deleted long ago without reading the live ones.
@Index('ix_connector_deleted', ['deletedAt'], { where: '"deleted_at" IS NOT NULL' })
@Check(
  'connector_status_check',
  `"status" IN ('pending_authorization', 'connected', 'auth_failed', 'disabled')`,
)
export class ConnectorEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('text', { name: 'account_id' }) accountId!: string;
  /** A name registered in `@connector/ats-registry`, checked when the connector is created. */
  @Column('text') type!: string;
  @Column('text') name!: string;
  @Column('text') status!: ConnectorStatus;
  /** What `enable` returns to: the status the connector had when it was disabled. */
  @Column('text', { name: 'status_before_disable', nullable: true })
  statusBeforeDisable!: ConnectorStatus | null;
  /** When the status last changed: an older status event never overwrites a newer status. */
  @Column('timestamptz', { name: 'status_changed_at', default: () => 'now()' }) statusChangedAt!: Date;
  @Column('jsonb', { default: () => `'{}'` }) options!: Record<string, unknown>;
  /** Non-secret configuration only (ATS-A baseUrl and clientId, ATS-B routine). */
  @Column('jsonb', { default: () => `'{}'` }) config!: Record<string, unknown>;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
  @Column('timestamptz', { name: 'deleted_at', nullable: true }) deletedAt!: Date | null;
  /** Bumped by TypeORM on every update: with the mapping version it makes the workers' snapshot version. */
  @VersionColumn({ default: 1 }) version!: number;
}
