import { Column, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A candidate's ATS id per connector, as candidate-sync announced it (`candidate.synced`). */
@Entity('candidate_ref')
// Erasure asks where a candidate lives across connectors: by candidate, not a read of every link.
@Index('ix_candidate_ref_candidate', ['candidateId'])
export class CandidateRefEntity {
  @PrimaryColumn('text', { name: 'connector_id', primaryKeyConstraintName: 'pk_candidate_ref' })
  connectorId!: string;
  @PrimaryColumn('text', { name: 'candidate_id', primaryKeyConstraintName: 'pk_candidate_ref' })
  candidateId!: string;
  @Column('text', { name: 'external_id' }) externalId!: string;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
