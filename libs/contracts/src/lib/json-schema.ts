import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import {
  ARRAY_MAX_SIZE,
  ARRAY_MIN_SIZE,
  getMetadataStorage,
  IS_ARRAY,
  IS_BOOLEAN,
  IS_DATE_STRING,
  IS_EMAIL,
  IS_IN,
  IS_INT,
  IS_ISO31661_ALPHA_2,
  IS_ISO8601,
  IS_NOT_EMPTY,
  IS_NUMBER,
  IS_OBJECT,
  IS_STRING,
  IS_URL,
  IS_UUID,
  MATCHES,
  MAX,
  MAX_LENGTH,
  MIN,
  MIN_LENGTH,
  ValidationTypes,
} from 'class-validator';
import 'reflect-metadata';

// class-transformer keeps the @Type() targets in this module but ships no types for its path.
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: MetadataStorage;
};

/** A JSON Schema (draft-07, the dialect AsyncAPI schemas extend). */
export interface JsonSchema {
  [keyword: string]: unknown;
}

/** A DTO class whose class-validator decorators describe a message's shape. */
export type SchemaClass = abstract new (...args: never[]) => object;

/**
 * JSON Schemas of DTO classes, read from their class-validator decorators: the same metadata
 * `validateMessage()` checks, so the published schema cannot say something else. Nested classes (via
 * `@ValidateNested` and `@Type`) become named schemas referenced under `refPrefix`. A decorator without a
 * JSON Schema equivalent throws, naming it, rather than being left out of the contract.
 */
export function jsonSchemasOf(
  classes: readonly SchemaClass[],
  refPrefix = '#/components/schemas/',
): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  const pending = [...classes];
  while (pending.length > 0) {
    const target = pending.shift() as SchemaClass;
    const name = schemaNameOf(target);
    if (schemas[name]) continue;
    schemas[name] = classSchema(target, refPrefix, (nested) => pending.push(nested));
  }
  return schemas;
}

/** `CandidateDataDto` → `CandidateData`. */
export function schemaNameOf(target: SchemaClass): string {
  return target.name.replace(/Dto$/, '');
}

type Metadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

const CONDITIONAL = ValidationTypes.CONDITIONAL_VALIDATION;
const NESTED = ValidationTypes.NESTED_VALIDATION;
const CUSTOM = ValidationTypes.CUSTOM_VALIDATION;

function classSchema(
  target: SchemaClass,
  refPrefix: string,
  found: (nested: SchemaClass) => void,
): JsonSchema {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(
    target as unknown as new () => object,
    '',
    true,
    false,
  );
  const byProperty = new Map<string, Metadata[]>();
  for (const item of metadata) {
    byProperty.set(item.propertyName, [...(byProperty.get(item.propertyName) ?? []), item]);
  }
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [property, items] of byProperty) {
    const where = `${target.name}.${property}`;
    const optional = items.some((item) => item.type === CONDITIONAL && item.name === 'isOptional');
    if (!optional) required.push(property);
    const schema: JsonSchema = {};
    const itemSchema: JsonSchema = {};
    for (const item of items) {
      if (item.type === CONDITIONAL && item.name === 'isOptional') continue;
      if (item.type === NESTED) {
        const nested = defaultMetadataStorage.findTypeMetadata(target, property)?.typeFunction() as
          SchemaClass | undefined;
        if (!nested) throw new Error(`${where}: @ValidateNested needs @Type(() => Class) for its schema`);
        found(nested);
        const ref = { $ref: `${refPrefix}${schemaNameOf(nested)}` };
        if (item.each) Object.assign(itemSchema, ref);
        else Object.assign(schema, ref);
        continue;
      }
      if (item.type !== CUSTOM || !item.name)
        throw new Error(`${where}: no JSON Schema for a ${item.type} rule`);
      applyConstraint(item.each ? itemSchema : schema, item.name, item.constraints ?? [], where);
    }
    // `@IsObject()` beside `@ValidateNested()` refuses an array where the one object belongs; the $ref'd
    // schema already says `type: object` (and draft-07 ignores a $ref's siblings), so it adds nothing here.
    for (const target of [schema, itemSchema]) {
      if (target['$ref'] !== undefined && target['type'] === 'object') delete target['type'];
    }
    if (Object.keys(itemSchema).length > 0) {
      schema['type'] = 'array';
      schema['items'] = itemSchema;
    }
    if (
      schema['type'] === 'string' &&
      schema['minLength'] === undefined &&
      items.some((i) => i.name === IS_NOT_EMPTY)
    ) {
      schema['minLength'] = 1;
    }
    properties[property] = schema;
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

function applyConstraint(schema: JsonSchema, name: string, constraints: unknown[], where: string): void {
  const [first] = constraints;
  switch (name) {
    case IS_STRING:
      schema['type'] = 'string';
      return;
    case IS_NOT_EMPTY:
      return; // minLength 1 once the type is known to be a string
    case MAX_LENGTH:
      schema['type'] = 'string';
      schema['maxLength'] = first;
      return;
    case MIN_LENGTH:
      schema['type'] = 'string';
      schema['minLength'] = first;
      return;
    case IS_EMAIL:
      Object.assign(schema, { type: 'string', format: 'email' });
      return;
    case IS_ISO8601:
    case IS_DATE_STRING:
      Object.assign(schema, { type: 'string', format: 'date-time' });
      return;
    case IS_UUID:
      Object.assign(schema, { type: 'string', format: 'uuid' });
      return;
    case IS_URL:
      Object.assign(schema, { type: 'string', format: 'uri' });
      return;
    case IS_ISO31661_ALPHA_2:
      Object.assign(schema, { type: 'string', pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2' });
      return;
    case MATCHES:
      schema['type'] = 'string';
      schema['pattern'] = patternOf(first, where);
      return;
    case IS_IN:
      schema['enum'] = [...(first as unknown[])];
      return;
    case IS_INT:
      schema['type'] = 'integer';
      return;
    case IS_NUMBER:
      schema['type'] = 'number';
      return;
    case MIN:
      schema['minimum'] = first;
      return;
    case MAX:
      schema['maximum'] = first;
      return;
    case IS_BOOLEAN:
      schema['type'] = 'boolean';
      return;
    case IS_OBJECT:
      schema['type'] = 'object';
      return;
    case IS_ARRAY:
      schema['type'] = 'array';
      return;
    case ARRAY_MIN_SIZE:
      schema['minItems'] = first;
      return;
    case ARRAY_MAX_SIZE:
      schema['maxItems'] = first;
      return;
    default:
      throw new Error(
        `${where}: no JSON Schema for @${name}; teach libs/contracts json-schema.ts what it means`,
      );
  }
}

/** A RegExp as a JSON Schema pattern; JSON Schema has no flags, so `i` is spelled out in the pattern. */
function patternOf(value: unknown, where: string): string {
  if (!(value instanceof RegExp)) throw new Error(`${where}: @Matches needs a RegExp`);
  const extra = value.flags.replace('i', '');
  if (extra) throw new Error(`${where}: RegExp flags "${extra}" have no JSON Schema equivalent`);
  return value.flags.includes('i') ? caseInsensitive(value.source) : value.source;
}

function caseInsensitive(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i] as string;
    if (char === '\\') {
      out += source.slice(i, i + 2);
      i++;
    } else if (char === '[') {
      inClass = true;
      out += char;
    } else if (char === ']') {
      inClass = false;
      out += char;
    } else if (
      inClass &&
      /[a-z]/i.test(char) &&
      source[i + 1] === '-' &&
      /[a-z]/i.test(source[i + 2] ?? '')
    ) {
      const range = source.slice(i, i + 3);
      out += `${range.toLowerCase()}${range.toUpperCase()}`;
      i += 2;
    } else if (/[a-z]/i.test(char)) {
      out += inClass
        ? `${char.toLowerCase()}${char.toUpperCase()}`
        : `[${char.toLowerCase()}${char.toUpperCase()}]`;
    } else {
      out += char;
    }
  }
  return out;
}
