import { Check, Column, CreateDateColumn, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import type { JobMapping } from '@connector/job-mapping';
import { ConnectorEntity } from '../connectors/connector.entity';

/** Every saved version of a connector's job mapping; the highest version is the current one. */
@Entity('job_mapping')
@Check('job_mapping_version_check', `"version" > 0`)
export class JobMappingEntity {
  @PrimaryColumn('uuid', { name: 'connector_id', primaryKeyConstraintName: 'pk_job_mapping' })
  @ForeignKey(() => ConnectorEntity, { name: 'job_mapping_connector_id_fkey' })
  connectorId!: string;
  @PrimaryColumn('int', { primaryKeyConstraintName: 'pk_job_mapping' }) version!: number;
  @Column('jsonb') mapping!: JobMapping;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  /** The admin id (hash prefix of their API key) that saved it; `system` for the default. */
  @Column('text', { name: 'created_by' }) createdBy!: string;
}
