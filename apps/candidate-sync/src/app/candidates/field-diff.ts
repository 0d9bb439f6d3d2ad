import { createHash } from 'node:crypto';

/** What was last sent to the ATS, per field, as hashes: enough to send only what changed. */
export type FieldHashes = Record<string, string>;

/** JSON with sorted keys, so equal values hash equally whatever the key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : inner,
  );
}

export function hashOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 32);
}

export function hashFields(fields: object): FieldHashes {
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, hashOf(value)]));
}

/** The fields whose value differs from what was last sent (all of them when nothing is known). */
export function changedFields<T extends object>(desired: T, sent: FieldHashes): Partial<T> {
  return Object.fromEntries(
    Object.entries(desired).filter(([key, value]) => sent[key] !== hashOf(value)),
  ) as Partial<T>;
}
