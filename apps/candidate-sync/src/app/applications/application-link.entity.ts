import { Check, Column, Entity, PrimaryColumn } from 'typeorm';
import { LINK_STATE_CHECK, OrderedLinkColumns } from '@connector/exactly-once';
import type { SentAnswers } from './application-answers';

/** One ATS application per (connector, candidate, vacancy): the key is the claim's unique constraint. */
@Entity('application_link')
@Check('application_link_state_check', LINK_STATE_CHECK)
export class ApplicationLinkEntity extends OrderedLinkColumns {
  @PrimaryColumn('text', { name: 'connector_id', primaryKeyConstraintName: 'pk_application_link' })
  connectorId!: string;
  @PrimaryColumn('text', { name: 'candidate_id', primaryKeyConstraintName: 'pk_application_link' })
  candidateId!: string;
  @PrimaryColumn('text', { name: 'vacancy_external_id', primaryKeyConstraintName: 'pk_application_link' })
  vacancyExternalId!: string;
  @Column('text', { name: 'application_id' }) applicationId!: string;
  @Column('jsonb', { default: () => `'{}'` }) answers!: SentAnswers;
}
