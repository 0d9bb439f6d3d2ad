import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { ErasedRecordsDto, ErasurePart } from '@connector/contracts';

/** One candidate's erasure across the services: who reported what, and when completion was announced. */
@Entity('candidate_erasure')
export class CandidateErasureEntity {
  @PrimaryColumn('text', { name: 'account_id', primaryKeyConstraintName: 'pk_candidate_erasure' })
  accountId!: string;
  @PrimaryColumn('text', { name: 'candidate_id', primaryKeyConstraintName: 'pk_candidate_erasure' })
  candidateId!: string;
  @Column('jsonb', { default: () => `'{}'` }) parts!: Partial<Record<ErasurePart, ErasedRecordsDto>>;
  /** `candidate.erasure_completed` always goes out with this id, so a repeat is recognisably the same event. */
  @Column('uuid', { name: 'completion_event_id' }) completionEventId!: string;
  @Column('text', { name: 'correlation_id', nullable: true }) correlationId!: string | null;
  @CreateDateColumn({ name: 'requested_at', type: 'timestamptz' }) requestedAt!: Date;
  @Column('timestamptz', { name: 'completed_at', nullable: true }) completedAt!: Date | null;
}
