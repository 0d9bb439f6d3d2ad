import { type Placeholders, sqlStatement } from '@connector/persistence';
import { RATE_LIMIT_BUCKET_TABLE } from './rate-limit-bucket.migration';

const T = `"${RATE_LIMIT_BUCKET_TABLE}"`;

/** A bucket's configuration as the statements write it into its row. */
export interface BucketValues {
  key: string;
  capacity: number;
  refillPerSecond: number;
  reserve: number;
}

// Refilled tokens at the database clock; clock_timestamp() (not now()) so a statement that waited for the
// row lock counts the time up to when it really runs.
function refilled(p: Placeholders<{ capacity: number }>): string {
  return `least(${p.capacity}::float8, b.tokens + b.refill_per_second
  * greatest(0, extract(epoch FROM clock_timestamp() - b.updated_at)::float8))`;
}

/**
 * One statement: take `cost` tokens if this priority may (`floor`: what must be left for it) and the key is not
 * paused; otherwise return the row as it was so the caller can compute how long to wait. The UPDATE locks the
 * row and re-checks its WHERE on the newest version, so concurrent takers never both spend the same tokens.
 */
export const ACQUIRE_TOKENS = sqlStatement<BucketValues & { cost: number; floor: number }>(
  (p) => `
WITH taken AS (
  UPDATE ${T} AS b
     SET tokens = ${refilled(p)} - ${p.cost}::float8,
         updated_at = greatest(b.updated_at, clock_timestamp()),
         capacity = ${p.capacity}::float8,
         refill_per_second = ${p.refillPerSecond}::float8,
         reserve = ${p.reserve}::float8
   WHERE b.key = ${p.key}
     AND (b.paused_until IS NULL OR b.paused_until <= clock_timestamp())
     AND ${refilled(p)} - ${p.cost}::float8 >= ${p.floor}::float8
  RETURNING b.key
)
SELECT true AS granted, NULL::float8 AS tokens, NULL::float8 AS updated_at_ms,
       NULL::float8 AS paused_until_ms, NULL::float8 AS now_ms
  FROM taken
UNION ALL
SELECT false, b.tokens, (extract(epoch FROM b.updated_at) * 1000)::float8,
       (extract(epoch FROM b.paused_until) * 1000)::float8, (extract(epoch FROM clock_timestamp()) * 1000)::float8
  FROM ${T} AS b
 WHERE b.key = ${p.key} AND NOT EXISTS (SELECT 1 FROM taken)`,
).withRow({
  granted: 'boolean',
  tokens: 'number | null',
  updated_at_ms: 'number | null',
  paused_until_ms: 'number | null',
  now_ms: 'number | null',
});

/** The key's bucket, created full; one that exists is left alone. */
export const ENSURE_BUCKET = sqlStatement<BucketValues>(
  (p) => `
INSERT INTO ${T} (key, tokens, capacity, refill_per_second, reserve, updated_at, paused_until)
VALUES (${p.key}, ${p.capacity}::float8, ${p.capacity}::float8, ${p.refillPerSecond}::float8, ${p.reserve}::float8,
        clock_timestamp(), NULL)
ON CONFLICT (key) DO NOTHING`,
);

// greatest() ignores NULL, and never shortens a pause another worker set from a later Retry-After.
export const PAUSE_BUCKET = sqlStatement<BucketValues & { untilMs: number }>(
  (p) => `
INSERT INTO ${T} AS b (key, tokens, capacity, refill_per_second, reserve, updated_at, paused_until)
VALUES (${p.key}, ${p.capacity}::float8, ${p.capacity}::float8, ${p.refillPerSecond}::float8, ${p.reserve}::float8,
        clock_timestamp(), to_timestamp(${p.untilMs}::float8 / 1000))
ON CONFLICT (key) DO UPDATE SET paused_until = greatest(b.paused_until, EXCLUDED.paused_until)`,
);

export const RESUME_BUCKET = sqlStatement<{ key: string }>(
  (p) => `UPDATE ${T} SET paused_until = NULL WHERE key = ${p.key}`,
);

/** The bucket's row, its times in ms at the database clock. */
export const PEEK_BUCKET = sqlStatement<{ key: string }>(
  (p) => `
SELECT tokens, capacity, refill_per_second, reserve,
       (extract(epoch FROM updated_at) * 1000)::float8 AS updated_at_ms,
       (extract(epoch FROM paused_until) * 1000)::float8 AS paused_until_ms,
       (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now_ms
  FROM ${T} WHERE key = ${p.key}`,
).withRow({
  tokens: 'number',
  capacity: 'number',
  refill_per_second: 'number',
  reserve: 'number',
  updated_at_ms: 'number',
  paused_until_ms: 'number | null',
  now_ms: 'number',
});
