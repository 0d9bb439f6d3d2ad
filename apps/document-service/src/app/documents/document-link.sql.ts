import type { LinkTableDescriptor } from '@connector/exactly-once';

export interface DocumentKey {
  connectorId: string;
  candidateId: string;
  sha256: string;
}

export interface DocumentClaim {
  documentId: string;
}

/**
 * `document_link` as the link flow's statements are generated from it (LinkTable): one row per file per
 * candidate per connector; a claim taken again keeps its first document id.
 */
export const DOCUMENT_LINKS: LinkTableDescriptor<DocumentKey, DocumentClaim> = {
  table: 'document_link',
  key: { connectorId: 'connector_id', candidateId: 'candidate_id', sha256: 'sha256' },
  claim: { documentId: 'document_id' },
  reclaim: [],
};
