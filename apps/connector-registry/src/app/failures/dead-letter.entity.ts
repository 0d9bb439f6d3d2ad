import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A message a service gave up on, kept for operators to read and replay. */
@Entity('dead_letter')
@Index('ix_dead_letter_account_failed', ['accountId', 'failedAt'])
@Index('ix_dead_letter_connector_failed', ['connectorId', 'failedAt'])
export class DeadLetterEntity {
  @PrimaryColumn('uuid') id!: string;
  /** The queue whose consumer gave up on it; a replay goes back there. */
  @Column('text') queue!: string;
  @Column('text', { name: 'routing_key' }) routingKey!: string;
  @Column('text', { name: 'message_id', nullable: true }) messageId!: string | null;
  @Column('text', { name: 'account_id', nullable: true }) accountId!: string | null;
  @Column('text', { name: 'connector_id', nullable: true }) connectorId!: string | null;
  @Column('text', { nullable: true }) type!: string | null;
  @Column('bytea') body!: Buffer;
  @Column('jsonb') reasons!: string[];
  @Column('boolean') retryable!: boolean;
  @Column('timestamptz', { name: 'failed_at' }) failedAt!: Date;
  @Column('timestamptz', { name: 'replayed_at', nullable: true }) replayedAt!: Date | null;
  @Column('int', { name: 'replay_count', default: 0 }) replayCount!: number;
}
