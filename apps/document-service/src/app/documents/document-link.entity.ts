import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { LINK_STATE_CHECK, LinkColumns } from '@connector/exactly-once';

/** One file (by sha256) attached to a candidate in a connector: claimed before the upload, so never twice. */
@Entity('document_link')
// Erasure asks where a candidate lives across connectors: by candidate, not a read of every link.
@Index('ix_document_link_candidate', ['candidateId'])
@Check('document_link_state_check', LINK_STATE_CHECK)
export class DocumentLinkEntity extends LinkColumns {
  @PrimaryColumn('text', { name: 'connector_id', primaryKeyConstraintName: 'pk_document_link' })
  connectorId!: string;
  @PrimaryColumn('text', { name: 'candidate_id', primaryKeyConstraintName: 'pk_document_link' })
  candidateId!: string;
  @PrimaryColumn('text', { primaryKeyConstraintName: 'pk_document_link' }) sha256!: string;
  @Column('text', { name: 'document_id' }) documentId!: string;
}
