/**
 * Tolerant readers for what real ATS instances send: one place that decides how a loosely typed JSON value
 * becomes a boolean, an id, a text or a date. Writers stay strict (they follow the vendor docs exactly);
 * these are for reading only. Every reader answers `undefined` for "absent, null or unreadable".
 */

const TRUE_WORDS = new Set(['true', '1', 'yes', 'y']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'n']);

/** `true/false`, `1/0`, `"1"/"0"`, `"true"/"false"` (any case), `"yes"/"no"`. */
export function readBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : undefined;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  return undefined;
}

/** A whole number given as a number or a numeric string (`42`, `"42"`, `" 42 "`, `42.0`). */
export function readInt(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : undefined;
}

/** A record id as the string the contract publishes (`externalId`): numbers and numeric strings alike. */
export function readId(value: unknown): string | undefined {
  const n = readInt(value);
  if (n !== undefined) return String(n);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Text with surrounding white space removed; empty text, `null` and non-text are absent. Numbers become text. */
export function readText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text === '' ? undefined : text;
}

const ZONELESS = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/;

/**
 * A moment from ISO 8601 text (a time without an offset is UTC), epoch milliseconds (number or numeric
 * string, as ATS-B sends them), or a `Date`.
 */
export function readDate(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  const epoch =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^-?\d{9,}$/.test(value.trim())
        ? Number(value)
        : undefined;
  if (epoch !== undefined) return Number.isFinite(epoch) ? new Date(epoch) : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = value.trim();
  const ms = Date.parse(ZONELESS.test(text) && text.length > 10 ? `${text}Z` : text);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

/** A JSON object (not an array), or `undefined`. */
export function readObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
