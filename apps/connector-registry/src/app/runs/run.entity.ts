import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { RunMode, RunStatus, RunWait } from '@connector/contracts';
import { ConnectorEntity } from '../connectors/connector.entity';

export interface RunWarning {
  code: string;
  message: string;
}

export interface RunCounts {
  fetched: number;
  upserted: number;
  unchanged: number;
  closed: number;
}

/** One data fetch of a connector ("Run"). At most one is queued or running per connector. */
@Entity('run')
@Index('ix_run_connector_queued', ['connectorId', 'queuedAt'])
@Index('uq_run_connector_active', ['connectorId'], {
  unique: true,
  where: `status IN ('queued', 'running')`,
})
@Check('run_status_check', `"status" IN ('queued', 'running', 'succeeded', 'failed')`)
@Check('run_mode_check', `"mode" IN ('incremental', 'full')`)
export class RunEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'connector_id' })
  @ForeignKey(() => ConnectorEntity, { name: 'run_connector_id_fkey' })
  connectorId!: string;
  @Column('text', { name: 'account_id' }) accountId!: string;
  @Column('text') status!: RunStatus;
  @Column('text') mode!: RunMode;
  @Column('jsonb') counts!: RunCounts;
  @Column('int', { name: 'api_calls', default: 0 }) apiCalls!: number;
  @Column('jsonb', { default: () => `'[]'` }) errors!: string[];
  /** What the run warns about in plain words (it may still have succeeded). */
  @Column('jsonb', { default: () => `'[]'` }) warnings!: RunWarning[];
  @Column('timestamptz', { name: 'queued_at' }) queuedAt!: Date;
  @Column('timestamptz', { name: 'started_at', nullable: true }) startedAt!: Date | null;
  @Column('timestamptz', { name: 'finished_at', nullable: true }) finishedAt!: Date | null;
  /** While the run waits for ATS budget: when it goes on. */
  @Column('timestamptz', { name: 'waiting_until', nullable: true }) waitingUntil?: Date | null;
  /** What the run waits for: `budget` or `ats` (its ATS system slow, busy or failing); null: budget. */
  @Column('text', { name: 'waiting_for', nullable: true }) waitingFor?: RunWait | null;
  /** When it ended, when the connector's next scheduled run was due (vacancy-sync's schedule). */
  @Column('timestamptz', { name: 'next_run_at', nullable: true }) nextRunAt?: Date | null;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
