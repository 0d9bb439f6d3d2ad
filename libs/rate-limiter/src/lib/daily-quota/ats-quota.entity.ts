import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A customer system's quota window; read and written only by PostgresDailyQuota's statements. */
@Entity('ats_quota')
export class AtsQuotaEntity {
  @PrimaryColumn('text', { primaryKeyConstraintName: 'pk_ats_quota' }) key!: string;
  @Column('double precision', { name: 'daily_limit' }) dailyLimit!: number;
  @Column('double precision', { name: 'ats_limit', nullable: true }) atsLimit!: number | null;
  @Column('double precision', { default: 0 }) used!: number;
  @Column('double precision', { name: 'our_used', default: 0 }) ourUsed!: number;
  @Column('double precision', { name: 'push_spent', default: 0 }) pushSpent!: number;
  @Column('double precision', { name: 'sync_spent', default: 0 }) syncSpent!: number;
  @Column('timestamptz', { name: 'reset_at' }) resetAt!: Date;
  @Column('timestamptz', { name: 'paused_until', nullable: true }) pausedUntil!: Date | null;
  @Column('double precision', { default: 0 }) rate!: number;
  @Column('timestamptz', { name: 'updated_at', default: () => 'clock_timestamp()' }) updatedAt!: Date;
}

/** Work waiting for a customer system's budget, so operators can see it. */
@Entity('ats_quota_waiter')
export class AtsQuotaWaiterEntity {
  @PrimaryColumn('text', { primaryKeyConstraintName: 'pk_ats_quota_waiter' }) key!: string;
  @PrimaryColumn('text', { name: 'waiter_id', primaryKeyConstraintName: 'pk_ats_quota_waiter' })
  waiterId!: string;
  @Column('text') kind!: string;
  @Column('timestamptz', { name: 'waiting_until' }) waitingUntil!: Date;
  @Column('timestamptz', { name: 'seen_at', default: () => 'clock_timestamp()' }) seenAt!: Date;
}
