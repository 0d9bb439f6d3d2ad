import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { LINK_STATE_CHECK, OrderedLinkColumns } from '@connector/exactly-once';
import type { SentState } from '@connector/ats-core';

/** A platform candidate's ATS record per connector, the last event applied and what was sent. */
@Entity('candidate_link')
// Erasure asks where a candidate lives across connectors: by candidate, not a read of every link.
@Index('ix_candidate_link_candidate', ['candidateId'])
@Check('candidate_link_state_check', LINK_STATE_CHECK)
export class CandidateLinkEntity extends OrderedLinkColumns {
  @PrimaryColumn('text', { name: 'connector_id', primaryKeyConstraintName: 'pk_candidate_link' })
  connectorId!: string;
  @PrimaryColumn('text', { name: 'candidate_id', primaryKeyConstraintName: 'pk_candidate_link' })
  candidateId!: string;
  @Column('text', { name: 'account_id' }) accountId!: string;
  /** Field hashes and child counts as last sent, so an update sends only what changed. */
  @Column('jsonb', { default: () => `'{}'` }) sent!: Partial<SentState>;
}
