import { sqlStatement } from '@connector/persistence';

/** Asked for every document (before its download): written out and prepared, not built per call. */
export const FIND_CANDIDATE_REF = sqlStatement<{ connectorId: string; candidateId: string }>(
  (p) =>
    `SELECT "external_id" FROM "candidate_ref" WHERE "connector_id" = ${p.connectorId} AND "candidate_id" = ${p.candidateId}`,
).withRow({ external_id: 'string' });
