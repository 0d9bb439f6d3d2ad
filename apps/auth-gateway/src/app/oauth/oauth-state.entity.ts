import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { SealedSecret } from '../crypto/secret-box';

/** One pending interactive login: single use, short-lived, bound to its ATS, a connector, an admin and a browser. */
@Entity('oauth_state')
@Index('ix_oauth_state_connector', ['connectorId'])
@Index('ix_oauth_state_expires', ['expiresAt'])
export class OAuthStateEntity {
  /** sha256 of the state: the state itself is never stored. */
  @PrimaryColumn('text', { name: 'state_hash' }) stateHash!: string;
  /** The ATS the login was started for: only its callback (`/oauth/{type}/callback`) may complete it. */
  @Column('text', { name: 'ats_type' }) atsType!: string;
  @Column('text', { name: 'connector_id' }) connectorId!: string;
  @Column('text', { name: 'account_id' }) accountId!: string;
  @Column('text', { name: 'admin_id' }) adminId!: string;
  @Column('text', { name: 'nonce_hash' }) nonceHash!: string;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt!: Date;
  @Column('timestamptz', { name: 'used_at', nullable: true }) usedAt!: Date | null;
  /** The PKCE code verifier (RFC 7636), sealed for its state hash and connector. */
  @Column('jsonb', { name: 'code_verifier', nullable: true }) codeVerifier!: SealedSecret | null;
}
