import { Column, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * Per vacancy: the content hash last published, whether it is live on the platform, the last run that saw
 * it live, and the last day it is advertised. Closing compares `last_seen_run` with the run.
 */
@Entity('vacancy_state')
@Index('ix_vacancy_state_live_seen', ['connectorId', 'lastSeenRun'], { where: '"live"' })
@Index('ix_vacancy_state_live_until', ['connectorId', 'liveUntil'], {
  where: '"live" AND "live_until" IS NOT NULL',
})
// Closed vacancies by when they closed: the retention job lets go of those closed long ago.
@Index('ix_vacancy_state_closed', ['updatedAt'], { where: 'NOT "live"' })
export class VacancyStateEntity {
  @PrimaryColumn('text', { name: 'connector_id', primaryKeyConstraintName: 'pk_vacancy_state' })
  connectorId!: string;
  @PrimaryColumn('text', { name: 'external_id', primaryKeyConstraintName: 'pk_vacancy_state' })
  externalId!: string;
  @Column('text', { name: 'content_hash' }) contentHash!: string;
  @Column('boolean') live!: boolean;
  @Column('text', { name: 'last_seen_run' }) lastSeenRun!: string;
  /** YYYY-MM-DD; null when open-ended. */
  @Column('date', { name: 'live_until', nullable: true }) liveUntil!: string | null;
  /** When the published content or liveness last changed. */
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
