import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A limiter key's token bucket; read and written only by PostgresRateLimiter's statements. */
@Entity('rate_limit_bucket')
export class RateLimitBucketEntity {
  @PrimaryColumn('text', { primaryKeyConstraintName: 'pk_rate_limit_bucket' }) key!: string;
  @Column('double precision') tokens!: number;
  @Column('double precision') capacity!: number;
  @Column('double precision', { name: 'refill_per_second' }) refillPerSecond!: number;
  @Column('double precision', { default: 0 }) reserve!: number;
  @Column('timestamptz', { name: 'updated_at', default: () => 'clock_timestamp()' }) updatedAt!: Date;
  @Column('timestamptz', { name: 'paused_until', nullable: true }) pausedUntil!: Date | null;
}
