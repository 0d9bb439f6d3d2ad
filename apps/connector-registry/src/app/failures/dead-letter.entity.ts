import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A message a service gave up on, kept for operators to read and replay. */
@Entity('dead_letter')
@Index('ix_dead_letter_account_failed', ['accountId', 'failedAt'])
@Index('ix_dead_letter_connector_failed', ['connectorId', 'failedAt'])
@Index('ix_dead_letter_account_candidate', ['accountId', 'candidateId'])
// The collector may be handed the same dead letter twice (a crash between storing and acknowledging).
@Index('uq_dead_letter_once', ['queue', 'messageId', 'failedAt'], {
  unique: true,
  where: '"message_id" IS NOT NULL',
})
export class DeadLetterEntity {
  @PrimaryColumn('uuid') id!: string;
  /** The queue whose consumer gave up on it; a replay goes back there. */
  @Column('text') queue!: string;
  @Column('text', { name: 'routing_key' }) routingKey!: string;
  @Column('text', { name: 'message_id', nullable: true }) messageId!: string | null;
  @Column('text', { name: 'account_id', nullable: true }) accountId!: string | null;
  @Column('text', { name: 'connector_id', nullable: true }) connectorId!: string | null;
  @Column('text', { nullable: true }) type!: string | null;
  /** The candidate the message is about, so that erasing the candidate erases it. */
  @Column('text', { name: 'candidate_id', nullable: true }) candidateId!: string | null;
  @Column('bytea') body!: Buffer;
  @Column('jsonb') reasons!: string[];
  @Column('boolean') retryable!: boolean;
  /** The broker user that published it (null: from before this was kept); a replay is checked against it. */
  @Column('text', { name: 'published_by', nullable: true }) publishedBy!: string | null;
  @Column('timestamptz', { name: 'failed_at' }) failedAt!: Date;
  @Column('timestamptz', { name: 'replayed_at', nullable: true }) replayedAt!: Date | null;
  @Column('int', { name: 'replay_count', default: 0 }) replayCount!: number;
}
