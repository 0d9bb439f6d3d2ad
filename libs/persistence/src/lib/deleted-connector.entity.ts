import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A connector the registry deleted (`connector.status_changed`, reason `deleted`), as a worker learnt it:
 * its data there goes after the retention period. Shared by the workers (DELETED_CONNECTOR_SCHEMA).
 */
@Entity('deleted_connector')
export class DeletedConnectorEntity {
  @PrimaryColumn('text', { name: 'connector_id', primaryKeyConstraintName: 'pk_deleted_connector' })
  connectorId!: string;
  /** The database role that wrote it: each worker's own under per-service roles. */
  @PrimaryColumn('text', {
    name: 'owner_role',
    default: () => 'CURRENT_USER',
    primaryKeyConstraintName: 'pk_deleted_connector',
  })
  ownerRole!: string;
  @CreateDateColumn({ name: 'deleted_at', type: 'timestamptz' }) deletedAt!: Date;
}
