import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A connector's event feed (ATS-B: its JobOrder subscription). `events`: read every `poll_seconds`;
 * `polling`: the subscription is lost or failing, made again at `next_read_at` while the runs carry on.
 */
@Entity('vacancy_event_feed')
@Index('ix_vacancy_event_feed_due', ['nextReadAt'])
@Index('ix_vacancy_event_feed_account_events', ['accountId'], { where: `"mode" = 'events'` })
export class VacancyEventFeedEntity {
  @PrimaryColumn('text', { name: 'connector_id', primaryKeyConstraintName: 'pk_vacancy_event_feed' })
  connectorId!: string;
  @Column('text', { name: 'account_id' }) accountId!: string;
  @Column('text', { name: 'subscription_id' }) subscriptionId!: string;
  @Column('text', { default: 'polling' }) mode!: string;
  /** The batch read and not yet applied: read again (by this id) before anything else. */
  @Column('integer', { name: 'pending_request_id', nullable: true }) pendingRequestId!: number | null;
  /** When a poller may claim it next (a claim moves it ahead, so a crashed poller's claim lapses). */
  @Column('timestamptz', { name: 'next_read_at' }) nextReadAt!: Date;
  @Column('integer', { name: 'poll_seconds', default: 60 }) pollSeconds!: number;
  @Column('timestamptz', { name: 'last_read_at', nullable: true }) lastReadAt!: Date | null;
  /** The ATS's time of the newest event read. */
  @Column('timestamptz', { name: 'last_event_at', nullable: true }) lastEventAt!: Date | null;
  /** Since when it is in its mode. */
  @Column('timestamptz', { default: () => 'now()' }) since!: Date;
  @Column('text', { nullable: true }) reason!: string | null;
  @Column('integer', { default: 0 }) failures!: number;
  /** The subscription was lost: once it is made again, a changes-only run catches up on what it missed. */
  @Column('boolean', { name: 'catch_up', default: false }) catchUp!: boolean;
}
