import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { RunMode, RunWarningDto } from '@connector/contracts';
import type { RunPhase, RunTrigger, SyncRunStatus } from './sync-run';

/** A run as `sync_run` keeps it: its cursor, counts and warnings, across pauses and processes. */
@Entity('sync_run')
@Index('ix_sync_run_open', ['connectorId', 'createdAt'], {
  where: `"status" IN ('queued', 'running', 'paused')`,
})
// A connector's history newest first: the retention job trims it (RUN_HISTORY_PER_CONNECTOR, RUN_HISTORY_DAYS).
@Index('ix_sync_run_connector_created', ['connectorId', 'createdAt'])
export class SyncRunEntity {
  @PrimaryColumn('text', { name: 'run_id' }) runId!: string;
  @Column('text', { name: 'connector_id' }) connectorId!: string;
  @Column('text', { name: 'account_id' }) accountId!: string;
  @Column('text') trigger!: RunTrigger;
  @Column('text', { name: 'requested_mode', nullable: true }) requestedMode!: RunMode | null;
  /** Fixed when the run first starts, so a resumed run lists the same set. */
  @Column('text', { nullable: true }) mode!: RunMode | null;
  @Column('timestamptz', { nullable: true }) since!: Date | null;
  @Column('text') status!: SyncRunStatus;
  @Column('text', { default: 'listing' }) phase!: RunPhase;
  /** The source's position after the last page handled (0: nothing yet). */
  @Column('bigint', {
    name: 'after_position',
    default: 0,
    transformer: { to: (v: number) => v, from: Number },
  })
  afterPosition!: number;
  @Column('integer', { default: 0 }) fetched!: number;
  @Column('integer', { default: 0 }) upserted!: number;
  @Column('integer', { default: 0 }) unchanged!: number;
  @Column('integer', { default: 0 }) closed!: number;
  /** Records the ATS returned, live or not. */
  @Column('integer', { name: 'read_records', default: 0 }) readRecords!: number;
  @Column('jsonb', { default: () => `'[]'` }) warnings!: RunWarningDto[];
  @Column('integer', { name: 'api_calls', default: 0 }) apiCalls!: number;
  @Column('integer', { default: 0 }) attempts!: number;
  @Column('timestamptz', { name: 'resume_at', nullable: true }) resumeAt!: Date | null;
  @Column('text', { nullable: true }) error!: string | null;
  @Column('text', { name: 'correlation_id', nullable: true }) correlationId!: string | null;
  /** A scheduled run's due time: its start minus this is how late the scheduler was. */
  @Column('timestamptz', { name: 'scheduled_at', nullable: true }) scheduledAt!: Date | null;
  @Column('timestamptz', { name: 'created_at', default: () => 'clock_timestamp()' }) createdAt!: Date;
  @Column('timestamptz', { name: 'started_at', nullable: true }) startedAt!: Date | null;
  @Column('timestamptz', { name: 'finished_at', nullable: true }) finishedAt!: Date | null;
}
