import { AtsBError } from './ats-b.error';

/**
 * The slice of Bullhorn's Lucene search syntax the integration uses: `field:value` terms joined by AND,
 * booleans as 1/0/true/false, numeric ranges `[from TO to]` (`*` open, `{}` exclusive), quoted text.
 */
export type QueryTerm =
  | { kind: 'bool'; field: string; value: boolean }
  | {
      kind: 'range';
      field: string;
      from: number | null;
      to: number | null;
      fromInclusive: boolean;
      toInclusive: boolean;
    }
  | { kind: 'text'; field: string; value: string };

export type SearchFieldKinds = Record<string, 'bool' | 'number' | 'text'>;

const invalid = (why: string): AtsBError =>
  AtsBError.badRequest(`Invalid search query: ${why}`, 'errors.invalidQuery');

export function parseSearchQuery(raw: string | undefined, kinds: SearchFieldKinds): QueryTerm[] {
  if (raw === undefined || raw.trim() === '') throw invalid("the 'query' parameter is required");
  const terms: QueryTerm[] = [];
  let pos = 0;
  const skipSpaces = (): void => {
    while (pos < raw.length && /\s/.test(raw[pos] as string)) pos++;
  };
  for (;;) {
    skipSpaces();
    if (pos >= raw.length) break;
    if (terms.length > 0) {
      const m = /^AND\s+/i.exec(raw.slice(pos)) ?? /^&&\s*/.exec(raw.slice(pos));
      if (!m) throw invalid(`expected AND at '${raw.slice(pos, pos + 20)}' (only AND is supported)`);
      pos += m[0].length;
    }
    if (raw[pos] === '+') pos++;
    const colon = raw.indexOf(':', pos);
    if (colon < 0) throw invalid(`expected field:value at '${raw.slice(pos, pos + 20)}'`);
    const field = raw.slice(pos, colon).trim();
    const kind = kinds[field];
    if (!/^[A-Za-z.]+$/.test(field)) throw invalid(`bad field name '${field}'`);
    if (kind === undefined) throw invalid(`field '${field}' is not searchable here`);
    pos = colon + 1;
    let value: string;
    const open = raw[pos];
    if (open === '[' || open === '{' || open === '"') {
      const close = open === '[' ? /[\]}]/ : open === '{' ? /[\]}]/ : /"/;
      const end = raw.slice(pos + 1).search(close);
      if (end < 0) throw invalid(`unterminated ${open}`);
      value = raw.slice(pos, pos + end + 2);
      pos += end + 2;
    } else {
      const start = pos;
      while (pos < raw.length && !/\s/.test(raw[pos] as string)) pos++;
      value = raw.slice(start, pos);
    }
    terms.push(toTerm(field, kind, value));
  }
  return terms;
}

function toTerm(field: string, kind: 'bool' | 'number' | 'text', value: string): QueryTerm {
  switch (kind) {
    case 'bool': {
      const v = value.toLowerCase();
      if (v === '1' || v === 'true') return { kind, field, value: true };
      if (v === '0' || v === 'false') return { kind, field, value: false };
      throw invalid(`'${field}' takes 1/0/true/false, got '${value}'`);
    }
    case 'number': {
      const range = /^([[{])\s*(\*|-?\d+)\s+TO\s+(\*|-?\d+)\s*([\]}])$/i.exec(value);
      if (range) {
        const [, lo, from, to, hi] = range;
        return {
          kind: 'range',
          field,
          from: from === '*' ? null : Number(from),
          to: to === '*' ? null : Number(to),
          fromInclusive: lo === '[',
          toInclusive: hi === ']',
        };
      }
      if (/^-?\d+$/.test(value)) {
        const n = Number(value);
        return { kind: 'range', field, from: n, to: n, fromInclusive: true, toInclusive: true };
      }
      throw invalid(`'${field}' takes a number or [from TO to] (epoch ms), got '${value}'`);
    }
    case 'text':
      return { kind, field, value: value.replace(/^"|"$/g, '') };
  }
}

/** Does a value satisfy a term; `get` reads the field from the record being filtered. */
export function matchesTerm(term: QueryTerm, get: (field: string) => unknown): boolean {
  const v = get(term.field);
  switch (term.kind) {
    case 'bool':
      return Boolean(v) === term.value;
    case 'range': {
      if (typeof v !== 'number') return false;
      if (term.from !== null && (term.fromInclusive ? v < term.from : v <= term.from)) return false;
      if (term.to !== null && (term.toInclusive ? v > term.to : v >= term.to)) return false;
      return true;
    }
    case 'text':
      return typeof v === 'string' && v.toLowerCase() === term.value.toLowerCase();
  }
}
