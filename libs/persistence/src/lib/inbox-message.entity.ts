import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Every message a consumer has taken, by id: the first line of defence against redelivery. */
@Entity('inbox_message')
@Index('uq_inbox_message_consumer_message', ['consumer', 'messageId'], { unique: true })
export class InboxMessageEntity {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' }) id!: string;
  @Column('text') consumer!: string;
  @Column('text', { name: 'message_id' }) messageId!: string;
  @Column('text') type!: string;
  @Column('text', { name: 'account_id' }) accountId!: string;
  @CreateDateColumn({ name: 'received_at', type: 'timestamptz' }) receivedAt!: Date;
}
