import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A key's lease (see KeyedLeases): who holds it and until when, renewed while the work runs. */
@Entity('keyed_lease')
export class KeyedLeaseEntity {
  /** Keeps services' keys apart. */
  @PrimaryColumn('text') namespace!: string;
  @PrimaryColumn('text') key!: string;
  @Column('text') owner!: string;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt!: Date;
  /** The fencing token of the current grant (see KeyedLeases), from the `keyed_lease_token` sequence. */
  @Column('bigint', { default: 0 }) token!: string;
}
