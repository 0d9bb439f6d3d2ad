import {
  ENTITY_FIELDS,
  FILTER_OPERATIONS,
  PAGING,
  REFERENCE_FIELDS,
  SEARCH_ENTITIES,
  WIRE_FORMAT,
  type FilterOperation,
  type SearchEntity,
} from '../ats-a.protocol';
import { validation } from '../sandbox.error';
import type { RecordSource } from '../store/record-source';

export interface SearchResponse<T = Record<string, unknown>> {
  CurrentPage: number;
  TotalPages: number;
  Records: T[];
}

type Operand =
  | { kind: 'date'; ms: number }
  | { kind: 'number'; n: number }
  | { kind: 'string'; s: string; lower: string; n: number }
  | { kind: 'boolean'; b: boolean }
  | { kind: 'null' };

interface CompiledFilter {
  field: string;
  subPath: string[];
  operation: FilterOperation;
  operands: Operand[];
  /** A pick list or link compared as a whole: only its Id matches (ats-a.md choice). */
  reference: boolean;
}

export interface ParsedSearch {
  recordsPerPage: number;
  requestedPage: number;
  filters: CompiledFilter[];
  /** null = every field. */
  responseBlocks: string[] | null;
  /** Canonical form of the filters, the key of the result cache. */
  filterKey: string;
}

const BODY_KEYS = ['Paging', 'Filters', 'ResponseBlocks'];
const CACHE_SIZE = 32;

/** Validates a search body; every problem is a 400 with a message naming the offending part. */
export function parseSearchBody(entity: SearchEntity, body: unknown): ParsedSearch {
  const input = body ?? {};
  if (!isPlainObject(input)) throw validation('Search body must be a JSON object');
  for (const key of Object.keys(input)) {
    if (!BODY_KEYS.includes(key))
      throw validation(`Unknown search property ${key} (expected ${BODY_KEYS.join(', ')})`);
  }
  const paging = input['Paging'] ?? {};
  if (!isPlainObject(paging)) throw validation('Paging must be an object');
  const recordsPerPage = paging['RecordsPerPage'] ?? PAGING.defaultRecordsPerPage;
  const requestedPage = paging['RequestedPage'] ?? 1;
  if (
    !Number.isInteger(recordsPerPage) ||
    (recordsPerPage as number) < 1 ||
    (recordsPerPage as number) > PAGING.maxRecordsPerPage
  ) {
    throw validation(`Paging.RecordsPerPage must be an integer from 1 to ${PAGING.maxRecordsPerPage}`);
  }
  if (!Number.isInteger(requestedPage) || (requestedPage as number) < 1) {
    throw validation('Paging.RequestedPage must be an integer of at least 1');
  }

  const rawFilters = input['Filters'] ?? [];
  if (!Array.isArray(rawFilters)) throw validation('Filters must be an array');
  const filters = rawFilters.map((filter, index) => compileFilter(entity, filter, index));

  const rawBlocks = input['ResponseBlocks'];
  let responseBlocks: string[] | null = null;
  if (rawBlocks !== undefined && rawBlocks !== null) {
    if (!Array.isArray(rawBlocks) || !rawBlocks.every((b): b is string => typeof b === 'string')) {
      throw validation('ResponseBlocks must be an array of field names');
    }
    for (const block of rawBlocks) {
      if (!ENTITY_FIELDS[entity].includes(block)) throw validation(`Unknown ResponseBlock ${block}`);
    }
    // An empty list asks for nothing in particular: answer with every field, as when it is absent.
    responseBlocks = rawBlocks.length ? rawBlocks : null;
  }

  return {
    recordsPerPage: recordsPerPage as number,
    requestedPage: requestedPage as number,
    filters,
    responseBlocks,
    filterKey: JSON.stringify(filters),
  };
}

function compileFilter(entity: SearchEntity, filter: unknown, index: number): CompiledFilter {
  const where = `Filters[${index}]`;
  if (!isPlainObject(filter)) throw validation(`${where} must be an object`);
  const route = filter['Route'];
  const operation = filter['Operation'];
  if (typeof route !== 'string') throw validation(`${where}.Route must be a string`);
  const [prefix, field, ...subPath] = route.split('.');
  const expectedPrefix = SEARCH_ENTITIES[entity].routePrefix;
  if (prefix !== expectedPrefix || !field) {
    throw validation(`${where}.Route ${route} must start with ${expectedPrefix}. followed by a field`);
  }
  if (!ENTITY_FIELDS[entity].includes(field))
    throw validation(`${where}.Route ${route}: unknown field ${field}`);
  if (typeof operation !== 'string' || !(FILTER_OPERATIONS as readonly string[]).includes(operation)) {
    throw validation(`${where}.Operation must be one of ${FILTER_OPERATIONS.join(', ')}`);
  }
  const op = operation as FilterOperation;
  if (!('Value' in filter)) throw validation(`${where}.Value is required`);
  const isDate = (subPath.length ? subPath[subPath.length - 1] : field).endsWith('Date');
  const value = filter['Value'];
  let operands: Operand[];
  if (op === 'In') {
    if (!Array.isArray(value)) throw validation(`${where}.Value must be an array for In`);
    operands = value.map((v, i) => toOperand(v, isDate, `${where}.Value[${i}]`));
  } else {
    operands = [toOperand(value, isDate, `${where}.Value`)];
    const kind = operands[0].kind;
    if ((op === 'GreaterThan' || op === 'LessThan') && (kind === 'null' || kind === 'boolean')) {
      throw validation(`${where}.Value cannot be compared with ${op}`);
    }
  }
  const reference =
    REFERENCE_FIELDS[entity].includes(field) &&
    (subPath.length === 0 || (subPath.length === 1 && subPath[0] === 'Id'));
  return { field, subPath: reference ? [] : subPath, operation: op, operands, reference };
}

function toOperand(value: unknown, isDate: boolean, where: string): Operand {
  if (value === null) return { kind: 'null' };
  if (isDate) {
    const ms = typeof value === 'string' ? parseUtc(value) : NaN;
    if (Number.isNaN(ms)) throw validation(`${where} must be an ISO 8601 date`);
    return { kind: 'date', ms };
  }
  if (isPlainObject(value) && typeof value['Id'] === 'number') return { kind: 'number', n: value['Id'] };
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw validation(`${where} must be a finite number`);
    return { kind: 'number', n: value };
  }
  if (typeof value === 'string') {
    return {
      kind: 'string',
      s: value,
      lower: value.toLowerCase(),
      n: value.trim() === '' ? NaN : Number(value),
    };
  }
  if (typeof value === 'boolean') return { kind: 'boolean', b: value };
  throw validation(`${where} must be a string, number, boolean, null or {Id}`);
}

/** choice: a date without a zone designator is UTC (the vendor's server time), never the caller's local time. */
function parseUtc(value: string): number {
  const zoneless = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value);
  return Date.parse(zoneless ? `${value}Z` : value);
}

function navigate(raw: unknown, subPath: string[]): unknown {
  let value = raw;
  for (const segment of subPath) {
    if (isPlainObject(value)) value = value[segment];
    else if (typeof value === 'number' && segment === 'Id')
      continue; // fast-path links are bare ids
    else return undefined;
  }
  return value;
}

function compare(a: number | string, b: number | string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** -1/0/1 when record value and operand are comparable, null when they are not (never a match). */
function order(raw: unknown, operand: Operand, caseInsensitive: boolean): number | null {
  switch (operand.kind) {
    case 'null':
      return raw === null || raw === undefined ? 0 : null;
    case 'date': {
      const ms = typeof raw === 'number' ? raw : typeof raw === 'string' ? parseUtc(raw) : NaN;
      return Number.isNaN(ms) ? null : compare(ms, operand.ms);
    }
    case 'boolean':
      return typeof raw === 'boolean' ? (raw === operand.b ? 0 : null) : null;
    case 'number': {
      const n = numericOf(raw);
      return n === null ? null : compare(n, operand.n);
    }
    case 'string': {
      if (typeof raw === 'string') {
        return caseInsensitive ? compare(raw.toLowerCase(), operand.lower) : compare(raw, operand.s);
      }
      const n = typeof raw === 'number' ? raw : null;
      return n === null || Number.isNaN(operand.n) ? null : compare(n, operand.n);
    }
  }
}

/** A pick list or link: the filter's Id (a number or `{Id}`) against the record's Id; anything else, nothing. */
function orderReference(raw: unknown, operand: Operand): number | null {
  if (operand.kind === 'null') return raw === null || raw === undefined ? 0 : null;
  if (operand.kind !== 'number') return null; // a Description, a numeric text, a boolean: no match, no error
  const n = numericOf(raw);
  return n === null ? null : compare(n, operand.n);
}

function numericOf(raw: unknown): number | null {
  if (typeof raw === 'number') return raw;
  if (isPlainObject(raw) && typeof raw['Id'] === 'number') return raw['Id'];
  return null;
}

function matches(raw: unknown, filter: CompiledFilter): boolean {
  const value = filter.subPath.length ? navigate(raw, filter.subPath) : raw;
  const orderOf = (operand: Operand, caseInsensitive: boolean) =>
    filter.reference ? orderReference(value, operand) : order(value, operand, caseInsensitive);
  switch (filter.operation) {
    case 'Equals':
    case 'In':
      // choice: text equality ignores case, like the vendor's SQL Server collation.
      return filter.operands.some((operand) => orderOf(operand, true) === 0);
    case 'GreaterThan':
      return orderOf(filter.operands[0], false) === 1;
    case 'LessThan':
      return orderOf(filter.operands[0], false) === -1;
  }
}

interface CachedResult {
  source: RecordSource<unknown>;
  version: number;
  ids: number[];
}

/**
 * Runs searches over a record source. Matching ids are cached per (entity, filters) until the source changes,
 * so paging through a big result costs one scan, not one per page.
 */
export class SearchEngine {
  private readonly cache = new Map<string, CachedResult>();

  search<T extends object>(
    entity: SearchEntity,
    source: RecordSource<T>,
    query: ParsedSearch,
  ): SearchResponse {
    const ids = this.matchingIds(entity, source, query);
    const totalPages = Math.ceil(ids.length / query.recordsPerPage);
    const start = (query.requestedPage - 1) * query.recordsPerPage;
    const records: Record<string, unknown>[] = [];
    for (const id of ids.slice(start, start + query.recordsPerPage)) {
      const record = source.get(id);
      if (record) records.push(project(entity, record as Record<string, unknown>, query.responseBlocks));
    }
    return { CurrentPage: query.requestedPage, TotalPages: totalPages, Records: records };
  }

  private matchingIds<T>(entity: SearchEntity, source: RecordSource<T>, query: ParsedSearch): number[] {
    const key = `${entity}|${query.filterKey}`;
    const cached = this.cache.get(key);
    if (cached && cached.source === source && cached.version === source.version) return cached.ids;

    const idField = SEARCH_ENTITIES[entity].idField;
    const byId = query.filters.find(
      (f) =>
        f.field === idField &&
        f.subPath.length === 0 &&
        (f.operation === 'Equals' || f.operation === 'In') &&
        f.operands.every((o) => o.kind === 'number' || (o.kind === 'string' && !Number.isNaN(o.n))),
    );
    const rest = query.filters.filter((f) => f !== byId);
    const accept = (id: number): boolean => rest.every((f) => matches(source.field(id, f.field), f));
    let ids: number[] = [];
    if (byId) {
      // Look the named ids up directly instead of scanning: the enrichment calls (In on ids) stay cheap.
      const wanted = [
        ...new Set(byId.operands.map((o) => (o.kind === 'number' ? o.n : o.kind === 'string' ? o.n : NaN))),
      ];
      ids = wanted
        .filter((id) => Number.isInteger(id) && source.has(id))
        .sort((a, b) => a - b)
        .filter(accept);
    } else {
      source.forEachId((id) => {
        if (accept(id)) ids.push(id);
      });
    }
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, { source, version: source.version, ids });
    return ids;
  }

  clear(): void {
    this.cache.clear();
  }
}

function project(
  entity: SearchEntity,
  record: Record<string, unknown>,
  blocks: string[] | null,
): Record<string, unknown> {
  if (!blocks) return toWire(record) as Record<string, unknown>;
  const idField = SEARCH_ENTITIES[entity].idField;
  // choice: the id is always returned, so a client can always tell records apart.
  const projected: Record<string, unknown> = { [idField]: record[idField] };
  for (const block of blocks) projected[block] = record[block];
  return toWire(projected) as Record<string, unknown>;
}

const UTC_DATE_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?Z$/;

/** A record as the vendor's serializer writes it (WIRE_FORMAT): nulls left out, date-times without offset. */
export function toWire(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toWire);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      if (field === null && WIRE_FORMAT.emptyValues === 'absent') continue;
      out[key] = toWire(field);
    }
    return out;
  }
  if (typeof value === 'string' && WIRE_FORMAT.dateTimes === 'no-offset') {
    const match = UTC_DATE_TIME.exec(value);
    if (match) return match[2] && match[2] !== '.000' ? `${match[1]}${match[2]}` : match[1];
  }
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
