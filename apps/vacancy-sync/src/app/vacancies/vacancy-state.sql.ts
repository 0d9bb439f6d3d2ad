import { sqlStatement } from '@connector/persistence';

/** The published states of a connector's vacancies. */
export const PUBLISHED = sqlStatement<{ connectorId: string; externalIds: string[] }>(
  (p) => `
  SELECT external_id, content_hash, live FROM vacancy_state
  WHERE connector_id = ${p.connectorId} AND external_id = ANY(${p.externalIds}::text[])`,
).withRow({ external_id: 'string', content_hash: 'string', live: 'boolean' });

/** Up to `limit` of a connector's live vacancies whose last advertised day is before `today`. */
export const EXPIRED = sqlStatement<{ connectorId: string; today: string; limit: number }>(
  (p) => `
  SELECT external_id FROM vacancy_state
  WHERE connector_id = ${p.connectorId} AND live AND live_until < ${p.today}::date
  ORDER BY external_id LIMIT ${p.limit}`,
).withRow({ external_id: 'string' });

/** Up to `limit` of a connector's live vacancies that run `runId` did not see. */
export const NOT_SEEN = sqlStatement<{ connectorId: string; runId: string; limit: number }>(
  (p) => `
  SELECT external_id FROM vacancy_state
  WHERE connector_id = ${p.connectorId} AND live AND last_seen_run <> ${p.runId}
  ORDER BY external_id LIMIT ${p.limit}`,
).withRow({ external_id: 'string' });
