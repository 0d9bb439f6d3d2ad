import type { OrderedLinkTableDescriptor } from '@connector/exactly-once';

/** A candidate's link: its key, and what the claim of its create writes. */
export interface CandidateKey {
  connectorId: string;
  candidateId: string;
}

export interface CandidateClaim {
  accountId: string;
  createdEventId: string;
}

/** `candidate_link` as the link flow's statements are generated from it (OrderedLinkTable). */
export const CANDIDATE_LINKS: OrderedLinkTableDescriptor<CandidateKey, CandidateClaim> = {
  table: 'candidate_link',
  key: { connectorId: 'connector_id', candidateId: 'candidate_id' },
  claim: { accountId: 'account_id', createdEventId: 'created_event_id' },
  reclaim: ['createdEventId'],
  sent: 'sent',
};
