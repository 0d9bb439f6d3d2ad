import { AtsBError } from './ats-b.error';

/** A parsed `fields=` value: field name → nested sub-selection (null = the field's default shape). */
export type FieldSelection = Map<string, FieldSelection | null> | '*';

/** Parses `id,title,clientContact(id,firstName),address` ; `*` selects everything. */
export function parseFields(raw: string | undefined, entity: string): FieldSelection {
  if (raw === undefined || raw.trim() === '') {
    throw AtsBError.badRequest(`The 'fields' parameter is required for ${entity}`, 'errors.missingFields');
  }
  if (raw.trim() === '*') return '*';
  let pos = 0;
  const parseList = (depth: number): Map<string, FieldSelection | null> => {
    const out = new Map<string, FieldSelection | null>();
    for (;;) {
      const start = pos;
      while (pos < raw.length && !',()'.includes(raw[pos] as string)) pos++;
      const name = raw.slice(start, pos).trim();
      if (!/^[A-Za-z_][A-Za-z0-9_]*$|^\*$/.test(name))
        throw AtsBError.badRequest(`Malformed fields parameter near '${name}'`);
      let sub: FieldSelection | null = null;
      if (raw[pos] === '(') {
        pos++;
        sub = parseList(depth + 1);
        if (raw[pos] !== ')') throw AtsBError.badRequest('Malformed fields parameter: missing )');
        pos++;
      }
      out.set(name, sub);
      if (raw[pos] === ',') {
        pos++;
        continue;
      }
      if (pos >= raw.length || (raw[pos] === ')' && depth > 0)) return out;
      throw AtsBError.badRequest('Malformed fields parameter');
    }
  };
  const list = parseList(0);
  if (pos < raw.length) throw AtsBError.badRequest('Malformed fields parameter');
  return list;
}

/**
 * Which fields an entity exposes. `true`: a plain field. `composite`: an embedded object (an address) that
 * comes whole unless sub-fields are named. `toOne`: an association to another entity that comes as its `id`
 * only unless sub-fields are named (`clientCorporation(id,name)`), listing the sub-fields it offers.
 */
export type FieldSpec = true | { composite: readonly string[] } | { toOne: readonly string[] };
export type FieldSchema = Record<string, FieldSpec>;

/**
 * Projects a record onto a selection; `id` is always returned, as Bullhorn does. A field the record holds as
 * `null` comes as `null`, one it does not hold is left out (instances send empty fields both ways).
 */
export function projectFields(
  record: object,
  selection: FieldSelection,
  schema: FieldSchema,
  entity: string,
): Record<string, unknown> {
  const source = record as Record<string, unknown>;
  const out: Record<string, unknown> = { id: source['id'] };
  const entries: [string, FieldSelection | null][] =
    selection === '*' ? Object.keys(schema).map((k) => [k, null]) : [...selection.entries()];
  for (const [name, sub] of entries) {
    const spec = schema[name];
    if (spec === undefined) throw AtsBError.invalidField(entity, name);
    if (spec === true && sub !== null) throw AtsBError.invalidField(entity, `${name}(…)`);
    const value = source[name];
    if (value === undefined) continue;
    if (spec === true || value === null) {
      out[name] = value;
      continue;
    }
    out[name] = pickSub(value as Record<string, unknown>, sub, spec, entity, name);
  }
  return out;
}

function pickSub(
  value: Record<string, unknown>,
  sub: FieldSelection | null,
  spec: { composite: readonly string[] } | { toOne: readonly string[] },
  entity: string,
  parent: string,
): Record<string, unknown> {
  const allowed = 'composite' in spec ? spec.composite : spec.toOne;
  const names = sub === '*' ? allowed : sub === null ? ('composite' in spec ? allowed : []) : [...sub.keys()];
  const out: Record<string, unknown> = {};
  if ('toOne' in spec) out['id'] = value['id'];
  for (const n of names) {
    if (!allowed.includes(n)) throw AtsBError.invalidField(entity, `${parent}.${n}`);
    if (value[n] !== undefined) out[n] = value[n];
  }
  return out;
}
