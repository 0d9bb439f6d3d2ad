import { sqlStatement } from '@connector/persistence';

/** A dead letter as `KEEP` stores it: column values, `reasons` as JSON. */
export interface DeadLetterValues {
  id: string;
  queue: string;
  routingKey: string;
  messageId: string | null;
  accountId: string | null;
  connectorId: string | null;
  type: string | null;
  candidateId: string | null;
  body: Buffer;
  reasons: string;
  retryable: boolean;
  publishedBy: string | null;
  failedAt: Date;
}

/** Stores a dead letter; one of a message already kept (the unique message id) is not stored twice. */
export const KEEP = sqlStatement<DeadLetterValues>(
  (p) => `
  INSERT INTO dead_letter (id, queue, routing_key, message_id, account_id, connector_id, type, candidate_id,
                           body, reasons, retryable, published_by, failed_at)
  VALUES (${p.id}, ${p.queue}, ${p.routingKey}, ${p.messageId}, ${p.accountId}, ${p.connectorId}, ${p.type},
          ${p.candidateId}, ${p.body}, ${p.reasons}::jsonb, ${p.retryable}, ${p.publishedBy}, ${p.failedAt})
  ON CONFLICT DO NOTHING`,
);

/** Appends a reason to a dead letter's, in place (no read of the others first). */
export const ADD_REASON = sqlStatement<{ id: string; reason: string }>(
  (p) =>
    `UPDATE dead_letter SET reasons = reasons || jsonb_build_array(${p.reason}::text) WHERE id = ${p.id}`,
);
