import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A candidate the platform erased (`candidate.erased`): only the ids, so this service refuses their later
 * events. Shared by the services that hold candidate data (ERASED_CANDIDATE_SCHEMA).
 */
@Entity('erased_candidate')
export class ErasedCandidateEntity {
  @PrimaryColumn('text', { name: 'account_id', primaryKeyConstraintName: 'pk_erased_candidate' })
  accountId!: string;
  @PrimaryColumn('text', { name: 'candidate_id', primaryKeyConstraintName: 'pk_erased_candidate' })
  candidateId!: string;
  /** The database role that wrote it: each service's own tombstones under per-service roles. */
  @PrimaryColumn('text', {
    name: 'owner_role',
    default: () => 'CURRENT_USER',
    primaryKeyConstraintName: 'pk_erased_candidate',
  })
  ownerRole!: string;
  @CreateDateColumn({ name: 'erased_at', type: 'timestamptz' }) erasedAt!: Date;
}
