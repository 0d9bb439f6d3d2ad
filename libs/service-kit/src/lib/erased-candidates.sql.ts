import { sqlStatement } from '@connector/persistence';

/** An erased candidate of an account (`erased_candidate`, ids only). */
export interface ErasedCandidateKey {
  accountId: string;
  candidateId: string;
}

/** The tombstone; a candidate erased before keeps the one it has. */
export const TOMBSTONE = sqlStatement<ErasedCandidateKey>(
  (p) => `
  INSERT INTO erased_candidate (account_id, candidate_id) VALUES (${p.accountId}, ${p.candidateId})
  ON CONFLICT DO NOTHING`,
);

/** Whether the candidate is erased (`erased`). Asked for every candidate event: written out, not built per call. */
export const IS_ERASED = sqlStatement<ErasedCandidateKey>(
  (p) => `
  SELECT EXISTS (SELECT 1 FROM erased_candidate WHERE account_id = ${p.accountId} AND candidate_id = ${p.candidateId})
    AS erased`,
).withRow({ erased: 'boolean' });
