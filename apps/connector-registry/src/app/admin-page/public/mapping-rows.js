// @ts-check
// The Mapping tab's rows: from a saved mapping to editable rows and back, and the checks made before sending.

/** @typedef {import('./admin-api').JobMappingDto} JobMapping */
/**
 * One platform field being edited: taken from an ATS field (with a fallback) or set to a fixed text.
 * @typedef {{ key: number, target: string, kind: 'from' | 'constant', from: string, fallback: string,
 *   constant: string }} MappingRow
 */
/** The "Publish only" filters as typed: comma-separated. @typedef {{ statuses: string, locations: string }} PublishFilters */

export const REQUIRED = ['title', 'location', 'description', 'requirements', 'status'];
/** @type {Record<string, string>} */
export const FIELD_LABELS = {
  title: 'Title',
  location: 'Location',
  description: 'Description',
  requirements: 'Requirements',
  status: 'Status',
};
/** Rows added on the page get keys from here up; the required rows keep theirs below it. */
export const FIRST_ADDED_KEY = 1000;

/**
 * @param {JobMapping | null | undefined} mapping
 * @returns {MappingRow[]}
 */
export function toRows(mapping) {
  const fields = (mapping && mapping.fields) || {};
  const names = [...REQUIRED, ...Object.keys(fields).filter((n) => !REQUIRED.includes(n))];
  return names.map((target, index) => {
    const source = fields[target] || { from: '' };
    return 'constant' in source
      ? { key: index, target, kind: 'constant', from: '', fallback: '', constant: source.constant }
      : {
          key: index,
          target,
          kind: 'from',
          from: source.from || '',
          fallback: source.default || '',
          constant: '',
        };
  });
}

/** @param {string} text */
const list = (text) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * @param {MappingRow[]} rows
 * @param {PublishFilters} publish
 * @returns {JobMapping}
 */
export function toMapping(rows, publish) {
  /** @type {JobMapping['fields']} */
  const fields = {};
  for (const row of rows) {
    const target = row.target.trim();
    fields[target] =
      row.kind === 'constant'
        ? { constant: row.constant }
        : { from: row.from.trim(), ...(row.fallback ? { default: row.fallback } : {}) };
  }
  const statuses = list(publish.statuses);
  const locations = list(publish.locations);
  /** @type {JobMapping} */
  const mapping = { fields };
  if (statuses.length || locations.length) {
    mapping.publish = {
      ...(statuses.length ? { statuses } : {}),
      ...(locations.length ? { locations } : {}),
    };
  }
  return mapping;
}

/**
 * Client-side checks the server cannot phrase per row: empty or repeated target names.
 * @param {MappingRow[]} rows
 */
export function localProblems(rows) {
  const problems = [];
  const seen = new Set();
  for (const row of rows) {
    const target = row.target.trim();
    if (!target) problems.push('An extra field has no name: give it one or remove the row.');
    else if (seen.has(target)) problems.push(`The field “${target}” appears twice.`);
    seen.add(target);
  }
  return problems;
}
