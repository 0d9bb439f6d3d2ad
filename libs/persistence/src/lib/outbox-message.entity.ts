import type { EventEnvelope } from '@connector/contracts';
import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A message a service must publish, stored with the change it announces (see OutboxRelay). */
@Entity('outbox_message')
@Index('ix_outbox_message_unsent', ['publisher', 'id'], { where: '"sent_at" IS NULL' })
export class OutboxMessageEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }) id!: string;
  /** The service that wrote it; only that service's relays publish it. */
  @Column('text') publisher!: string;
  @Column('text') exchange!: string;
  @Column('text', { name: 'message_id' }) messageId!: string;
  @Column('text') type!: string;
  /** Every contract message's data is a JSON object. */
  @Column('jsonb') envelope!: EventEnvelope<string, object>;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column('integer', { default: 0 }) attempts!: number;
  @Column('text', { name: 'last_error', nullable: true }) lastError!: string | null;
  @Column('timestamptz', { name: 'sent_at', nullable: true }) sentAt!: Date | null;
  /** Set aside by the relay (it can never be published, or kept failing): skipped until an operator acts. */
  @Column('timestamptz', { name: 'parked_at', nullable: true }) parkedAt!: Date | null;
}
