import {
  type JobMapping,
  type JobMappingSource,
  type MappedVacancy,
  REQUIRED_TARGETS,
  type RequiredTarget,
} from './job-mapping.types';

/**
 * Applies a (valid) mapping to one ATS record. Pick-list values `{Id, Description}` become their
 * Description; a missing or empty value becomes the source's default, or ''.
 */
export function applyJobMapping(mapping: JobMapping, record: Record<string, unknown>): MappedVacancy {
  const value = (target: string): string => resolve(mapping.fields[target], record);
  const required = Object.fromEntries(REQUIRED_TARGETS.map((target) => [target, value(target)])) as Record<
    RequiredTarget,
    string
  >;
  const fields: Record<string, string> = {};
  for (const target of Object.keys(mapping.fields)) {
    if (!(REQUIRED_TARGETS as readonly string[]).includes(target)) fields[target] = value(target);
  }
  const publish =
    isListed(required.status, mapping.publish?.statuses) &&
    isListed(required.location, mapping.publish?.locations);
  return { ...required, fields, publish };
}

/** Reads a dotted path (`Company.Address.Town`) from a record; undefined when any step is missing. */
export function readPath(record: unknown, path: string): unknown {
  let current: unknown = record;
  for (const step of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}

function resolve(source: JobMappingSource | undefined, record: Record<string, unknown>): string {
  if (!source) return '';
  if ('constant' in source) return source.constant;
  const text = asText(readPath(record, source.from));
  return text === '' ? (source.default ?? '') : text;
}

/**
 * Any ATS value as text, read tolerantly: null, absent and blank text are empty (so the default applies);
 * text is trimmed; numbers and booleans as written; a pick list by its Description; a list joined.
 */
function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(asText).filter(Boolean).join(', ');
  if (typeof value === 'object' && 'Description' in value) return asText(value.Description);
  return '';
}

/** No list (or an empty one) means no filter; comparison ignores case and surrounding spaces. */
function isListed(value: string, allowed: string[] | undefined): boolean {
  if (!allowed || allowed.length === 0) return true;
  const wanted = value.trim().toLowerCase();
  return allowed.some((item) => item.trim().toLowerCase() === wanted);
}
