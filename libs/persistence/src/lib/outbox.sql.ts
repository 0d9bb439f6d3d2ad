import { sqlStatement } from './sql-statement';

/**
 * The publisher's next unsent, unparked rows, oldest first, locked; rows another relay holds are skipped
 * (whole rows: `entitiesOf` reads them).
 */
export const NEXT_OUTBOX_BATCH = sqlStatement<{ publisher: string; limit: number }>(
  (p) => `
  SELECT * FROM outbox_message
  WHERE publisher = ${p.publisher} AND sent_at IS NULL AND parked_at IS NULL
  ORDER BY id
  LIMIT ${p.limit}::int
  FOR UPDATE SKIP LOCKED`,
).withRow({
  id: 'string',
  publisher: 'string',
  exchange: 'string',
  message_id: 'string',
  type: 'string',
  envelope: 'json',
  created_at: 'date',
  attempts: 'number',
  last_error: 'string | null',
  sent_at: 'date | null',
  parked_at: 'date | null',
});

/** A row published (the broker confirmed it): one more attempt, sent now. */
export const MARK_SENT = sqlStatement<{ id: string }>(
  (p) =>
    `UPDATE outbox_message SET attempts = attempts + 1, sent_at = now(), last_error = NULL WHERE id = ${p.id}`,
);

/** A row whose publish failed: one more attempt, and why. */
export const MARK_FAILED = sqlStatement<{ id: string; lastError: string }>(
  (p) => `UPDATE outbox_message SET attempts = attempts + 1, last_error = ${p.lastError} WHERE id = ${p.id}`,
);

/** A row set aside for an operator (no attempt counted), and why. */
export const PARK = sqlStatement<{ id: string; lastError: string }>(
  (p) => `UPDATE outbox_message SET parked_at = now(), last_error = ${p.lastError} WHERE id = ${p.id}`,
);

/** The publisher's rows sent before `before`. */
export const PURGE_SENT = sqlStatement<{ publisher: string; before: Date }>(
  (p) => `DELETE FROM outbox_message WHERE publisher = ${p.publisher} AND sent_at < ${p.before}`,
);
