import { sqlStatement } from '@connector/persistence';

/**
 * One statement: a new window for an address never seen or whose window ended, else one more failure in it.
 * Every SET expression reads the row as it was, so both CASEs agree.
 */
export const RECORD_FAILURE = sqlStatement<{ address: string; windowMs: number }>(
  (p) => `
  INSERT INTO "admin_key_failure" AS f ("address", "window_started_at", "failures")
  VALUES (${p.address}, now(), 1)
  ON CONFLICT ("address") DO UPDATE SET
    "failures" = CASE WHEN f."window_started_at" <= now() - make_interval(secs => ${p.windowMs}::numeric / 1000.0)
                      THEN 1 ELSE f."failures" + 1 END,
    "window_started_at" = CASE WHEN f."window_started_at" <= now() - make_interval(secs => ${p.windowMs}::numeric / 1000.0)
                               THEN now() ELSE f."window_started_at" END
  RETURNING "failures",
    GREATEST(0, ceil(extract(epoch FROM f."window_started_at" + make_interval(secs => ${p.windowMs}::numeric / 1000.0) - now()) * 1000))::int
      AS "remaining_ms"`,
).withRow({ failures: 'number', remaining_ms: 'number' });
