import type { RetentionRule } from '@connector/persistence';

/** Connectors deleted before the cutoff; as text, the type of `dead_letter.connector_id` (any string). */
const deletedBefore = (asText: boolean) =>
  `(SELECT "id"${asText ? '::text' : ''} FROM "connector" WHERE "deleted_at" < $1)`;

/**
 * What connector-registry deletes once kept long enough: the failure log's entries and finished erasure
 * records after DEAD_LETTER_RETENTION_DAYS; a deleted connector, its mapping versions, runs and failures
 * after DELETED_CONNECTOR_RETENTION_DAYS (the connector row last: the others refer to it).
 */
export function registryRetention(config: {
  DEAD_LETTER_RETENTION_DAYS: number;
  DELETED_CONNECTOR_RETENTION_DAYS: number;
}): RetentionRule[] {
  const failures = config.DEAD_LETTER_RETENTION_DAYS;
  const deleted = config.DELETED_CONNECTOR_RETENTION_DAYS;
  return [
    {
      name: `dead letters older than ${failures} days`,
      table: 'dead_letter',
      where: `"failed_at" < $1`,
      keepDays: failures,
    },
    {
      name: `candidate erasures completed more than ${failures} days ago`,
      table: 'candidate_erasure',
      where: `"completed_at" < $1`,
      keepDays: failures,
    },
    ...['dead_letter', 'job_mapping', 'run'].map((table) => ({
      name: `${table} of connectors deleted more than ${deleted} days ago`,
      table,
      where: `"connector_id" IN ${deletedBefore(table === 'dead_letter')}`,
      keepDays: deleted,
    })),
    {
      // A window lasts a minute; a day-old row counts nothing.
      name: 'wrong admin key windows over a day old',
      table: 'admin_key_failure',
      where: `"window_started_at" < $1`,
      keepDays: 1,
    },
    {
      name: `connectors deleted more than ${deleted} days ago`,
      table: 'connector',
      where: `"deleted_at" < $1`,
      keepDays: deleted,
    },
  ];
}
