import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** One configured admin API key, kept only as its digest. */
export interface ApiKeyEntry {
  accountId: string;
  digest: Buffer;
}

/** Who a request acts as: the key's account, and an admin id that names the key without revealing it. */
export interface AdminIdentity {
  accountId: string;
  adminId: string;
}

export class ApiKeysFormatError extends Error {}

const ACCOUNT_ID = /^[A-Za-z0-9_.-]{1,100}$/;
/** Outside local and test mode a key must be long and random enough that guessing it is hopeless. */
const MIN_KEY_LENGTH = 32;
const MIN_DISTINCT_CHARACTERS = 8;
/** Keys published in this repository (README, npm start): never accepted in production. */
const DEMO_KEYS = new Set(['demo-admin-key']);

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * `<accountId>:<key>[,<accountId>:<key>…]` → entries; throws naming the entry (never the key) when malformed.
 * `strict` (production): every key at least 32 characters of some variety, and no demo key.
 */
export function parseApiKeys(value: string, options: { strict?: boolean } = {}): ApiKeyEntry[] {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0) throw new ApiKeysFormatError('at least one <accountId>:<key> is required');
  const seen = new Set<string>();
  return items.map((item, index) => {
    const colon = item.indexOf(':');
    const accountId = colon > 0 ? item.slice(0, colon) : '';
    const key = colon > 0 ? item.slice(colon + 1) : '';
    if (!ACCOUNT_ID.test(accountId) || key === '' || /\s/.test(key)) {
      throw new ApiKeysFormatError(`entry ${index + 1} is not <accountId>:<key>`);
    }
    if (options.strict) {
      if (DEMO_KEYS.has(key)) {
        throw new ApiKeysFormatError(`entry ${index + 1} is the published demo key, refused in production`);
      }
      if (key.length < MIN_KEY_LENGTH || new Set(key).size < MIN_DISTINCT_CHARACTERS) {
        throw new ApiKeysFormatError(
          `entry ${index + 1} is too weak: keys must be at least ${MIN_KEY_LENGTH} random characters in production ` +
            '(e.g. openssl rand -base64 33)',
        );
      }
    }
    const digest = sha256(key);
    const hex = digest.toString('hex');
    if (seen.has(hex)) throw new ApiKeysFormatError(`entry ${index + 1} repeats a key`);
    seen.add(hex);
    return { accountId, digest };
  });
}

/**
 * The identity of a presented key, or undefined. Every entry is compared (in constant time per entry) so
 * the answer takes as long whichever entry matches.
 */
export function identify(
  entries: readonly ApiKeyEntry[],
  presented: string,
  adminIdSecret: string,
): AdminIdentity | undefined {
  const digest = sha256(presented);
  let match: ApiKeyEntry | undefined;
  for (const entry of entries) {
    if (timingSafeEqual(entry.digest, digest) && !match) match = entry;
  }
  return match && { accountId: match.accountId, adminId: adminIdOf(presented, adminIdSecret) };
}

/**
 * HMAC-SHA256 of the key under ADMIN_ID_SECRET, 32 hex characters: stable per key, safe to store and log.
 * Unlike a bare hash, it cannot be used to test guessed keys offline by whoever reads it.
 */
export function adminIdOf(key: string, secret: string): string {
  return createHmac('sha256', secret).update(key, 'utf8').digest('hex').slice(0, 32);
}
