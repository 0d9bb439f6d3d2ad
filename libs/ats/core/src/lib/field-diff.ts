import { createHash, createHmac, createSecretKey, type KeyObject } from 'node:crypto';

/** What was last sent to the ATS, per field, as keyed hashes: enough to send only what changed. */
export type FieldHashes = Record<string, string>;

/** The order `localeCompare` gives (stored hashes depend on it), without building a collator per comparison. */
const keyOrder = new Intl.Collator();

/** JSON with sorted keys, so equal values hash equally whatever the key order. */
export function canonicalJson(value: unknown): string {
  // Most fields are a string or a number: the same JSON, without calling the replacer.
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => keyOrder.compare(a, b)),
        )
      : inner,
  );
}

/**
 * The hashes kept for change detection: HMAC-SHA256 under FIELD_HASH_KEY, so a stored hash of an email or a
 * phone number cannot be matched against guesses by whoever reads the database without the key.
 */
export class FieldHasher {
  /** Prepared once: several hashes are taken per event. */
  private readonly key: KeyObject;

  constructor(key: string) {
    this.key = createSecretKey(Buffer.from(key, 'utf8'));
  }

  hash(value: unknown): string {
    return createHmac('sha256', this.key).update(canonicalJson(value)).digest('hex').slice(0, 32);
  }

  fields(fields: object): FieldHashes {
    return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, this.hash(value)]));
  }

  /** The fields whose value differs from what was last sent (all of them when nothing is known). */
  changed<T extends object>(desired: T, sent: FieldHashes): Partial<T> {
    return Object.fromEntries(
      Object.entries(desired).filter(([key, value]) => sent[key] !== this.hash(value)),
    ) as Partial<T>;
  }
}

/**
 * The unkeyed hash used before FIELD_HASH_KEY, kept only to recognise the ATS-B child records recorded under
 * it (recreating them would duplicate them in the ATS); field hashes of that time were cleared by migration.
 */
export function legacyHashOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 32);
}
