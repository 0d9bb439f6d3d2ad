import type { OrderedLinkTableDescriptor } from '@connector/exactly-once';

export interface ApplicationKey {
  connectorId: string;
  candidateId: string;
  vacancyExternalId: string;
}

export interface ApplicationClaim {
  applicationId: string;
  createdEventId: string;
}

/**
 * `application_link` as the link flow's statements are generated from it (OrderedLinkTable). An application
 * waits for its candidate: nothing is claimed or read while the candidate has no ATS id in this connector.
 */
export const APPLICATION_LINKS: OrderedLinkTableDescriptor<ApplicationKey, ApplicationClaim> = {
  table: 'application_link',
  key: { connectorId: 'connector_id', candidateId: 'candidate_id', vacancyExternalId: 'vacancy_external_id' },
  claim: { applicationId: 'application_id', createdEventId: 'created_event_id' },
  reclaim: ['createdEventId'],
  sent: 'answers',
  prerequisite: (p) =>
    `SELECT "external_id" FROM "candidate_link" WHERE "connector_id" = ${p.connectorId} AND "candidate_id" = ${p.candidateId}`,
};
