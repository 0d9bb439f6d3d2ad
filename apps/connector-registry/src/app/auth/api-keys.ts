import { createHash, timingSafeEqual } from 'node:crypto';

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

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** `<accountId>:<key>[,<accountId>:<key>…]` → entries; throws naming the entry (never the key) when malformed. */
export function parseApiKeys(value: string): ApiKeyEntry[] {
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
export function identify(entries: readonly ApiKeyEntry[], presented: string): AdminIdentity | undefined {
  const digest = sha256(presented);
  let match: ApiKeyEntry | undefined;
  for (const entry of entries) {
    if (timingSafeEqual(entry.digest, digest) && !match) match = entry;
  }
  return match && { accountId: match.accountId, adminId: adminIdOf(presented) };
}

/** First 16 hex characters of sha256(key): stable per key, safe to store and log. */
export function adminIdOf(key: string): string {
  return sha256(key).toString('hex').slice(0, 16);
}
