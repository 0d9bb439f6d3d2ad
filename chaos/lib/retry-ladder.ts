import { UNSURE_WRITE_SETTLE_MS } from '@connector/ats-http';
import { DEFAULT_LEASE_TTL_MS } from '@connector/persistence';

/**
 * The longest a kill -9 holds up a candidate whose create was under way in the killed process: its lease
 * lapses only a TTL after its last renewal, and its claimed create may still land in the ATS until
 * UNSURE_WRITE_SETTLE_MS after the claim. Both keep their production values (exactly-once rests on them), so
 * an application or document waiting for that candidate must be retried for longer than this.
 */
export const KILL_HOLD_MS = Math.max(DEFAULT_LEASE_TTL_MS, UNSURE_WRITE_SETTLE_MS);

/**
 * The services' retry ladder in a scenario (RETRY_DELAYS_MS). Production's (5 s … 30 min, about 80 minutes)
 * has outlasted a kill's hold by its third try; this one is short at the start, so a scenario settles in
 * minutes, but still outlasts the hold of every kill a scenario makes before its last try.
 */
export const CHAOS_RETRY_DELAYS_MS: readonly number[] = [
  250, 500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000, 60_000, 60_000,
];
