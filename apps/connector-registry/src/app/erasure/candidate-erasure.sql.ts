import { sqlStatement } from '@connector/persistence';

/**
 * Starts the record of a candidate's erasure; one started already is left as it is (its parts and its
 * announcement's id kept), so the part that comes first creates it and the others lock it.
 */
export const START_ERASURE = sqlStatement<{
  accountId: string;
  candidateId: string;
  completionEventId: string;
  correlationId: string;
}>(
  (p) => `
  INSERT INTO candidate_erasure (account_id, candidate_id, parts, completion_event_id, correlation_id)
  VALUES (${p.accountId}, ${p.candidateId}, '{}'::jsonb, ${p.completionEventId}, ${p.correlationId})
  ON CONFLICT DO NOTHING`,
);
