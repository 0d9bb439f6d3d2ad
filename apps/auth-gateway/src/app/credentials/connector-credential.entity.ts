import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { SealedSecret } from '../crypto/secret-box';

/**
 * `active`: usable. `authorization_required`: an admin must authorize again (ATS-B `invalid_grant`).
 * `rejected`: the ATS refused a secret we keep (ATS-A); it is tried again from `recheckAt`.
 */
export type CredentialState = 'active' | 'authorization_required' | 'rejected';

/**
 * What it takes to get into a connector's ATS. The long-lived secret (ATS-A clientSecret, ATS-B refresh
 * token) and the current access (tokens, session) are sealed; nothing secret is stored in clear.
 */
@Entity('connector_credential')
@Check('connector_credential_state_check', `"state" IN ('active', 'authorization_required', 'rejected')`)
// The re-check job's tick reads the refused secrets that are due, never every connector's row.
@Index('ix_connector_credential_recheck', ['recheckAt'], { where: `"state" = 'rejected'` })
// The renew-ahead job's tick reads the access in use that is due, never every connector's row.
@Index('ix_connector_credential_renew', ['renewAt'], { where: `"state" = 'active' AND "in_use"` })
export class ConnectorCredentialEntity {
  @PrimaryColumn('text', { name: 'connector_id' }) connectorId!: string;
  @Column('text', { name: 'account_id' }) accountId!: string;
  /** Its connector's ATS (a name registered in `@connector/ats-registry`). */
  @Column('text', { name: 'ats_type' }) atsType!: string;
  @Column('text') state!: CredentialState;
  /** ATS-A: the customer's base address (without /api). */
  @Column('text', { name: 'base_url', nullable: true }) baseUrl!: string | null;
  /** ATS-A client id: an identifier, not a secret. */
  @Column('text', { name: 'client_id', nullable: true }) clientId!: string | null;
  @Column('jsonb', { name: 'secret', nullable: true }) secret!: SealedSecret | null;
  @Column('jsonb', { name: 'access', nullable: true }) access!: SealedSecret | null;
  @Column('timestamptz', { name: 'access_expires_at', nullable: true }) accessExpiresAt!: Date | null;
  /** Fingerprint of the access handed out, so a worker can say which one the ATS refused. */
  @Column('text', { name: 'access_fingerprint', nullable: true }) accessFingerprint!: string | null;
  /** Set before a single-use refresh token is spent, cleared once the rotated one is stored. */
  @Column('text', { name: 'refresh_marker', nullable: true }) refreshMarker!: string | null;
  @Column('timestamptz', { name: 'refresh_started_at', nullable: true }) refreshStartedAt!: Date | null;
  /** `rejected`: when the kept secret is tried again. */
  @Column('timestamptz', { name: 'recheck_at', nullable: true }) recheckAt!: Date | null;
  /** Which save these credentials come from (new on every save); null for rows saved before it existed. */
  @Column('text', { name: 'generation', nullable: true }) generation!: string | null;
  /** The renewal under way (its owner's id) and until when it holds: another waits for it or takes over after. */
  @Column('text', { name: 'lease_owner', nullable: true }) leaseOwner!: string | null;
  @Column('timestamptz', { name: 'lease_until', nullable: true }) leaseUntil!: Date | null;
  /** When the current access is renewed ahead of its end (while `inUse`). */
  @Column('timestamptz', { name: 'renew_at', nullable: true }) renewAt!: Date | null;
  /** The current access was handed to a worker: worth renewing ahead (idle connectors' tokens are not). */
  @Column('boolean', { name: 'in_use', default: false }) inUse!: boolean;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
