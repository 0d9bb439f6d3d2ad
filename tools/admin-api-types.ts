/**
 * The admin page's API types (apps/connector-registry/.../public/admin-api.d.ts), generated from the OpenAPI
 * document's `components.schemas`: one declaration per schema, named as the schema, so the page's JSDoc reads the
 * server's views and cannot drift from them. Covers the OpenAPI 3.0 subset @nestjs/swagger emits; a schema it does
 * not understand fails the generation, naming where, instead of becoming `unknown`.
 */
import { join } from 'node:path';

export const ADMIN_API_TYPES_PATH = join(
  __dirname,
  '..',
  'apps/connector-registry/src/app/admin-page/public/admin-api.d.ts',
);

/** The part of an OpenAPI 3.0 schema object the generator reads. */
interface Schema {
  $ref?: string;
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean';
  enum?: Array<string | number | boolean>;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  nullable?: boolean;
  description?: string;
  format?: string;
}

interface OpenApiDocument {
  info?: { version?: string };
  components?: { schemas?: Record<string, Schema> };
}

const HEADER = `// Generated from docs/openapi.json by \`npm run contracts\` (tools/admin-api-types.ts). Do not edit: change
// the server's views or DTOs and re-run it. Types only, for \`// @ts-check\` and JSDoc in the admin page's modules.
`;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function adminApiTypes(document: OpenApiDocument): string {
  const schemas = document.components?.schemas ?? {};
  const declarations = Object.entries(schemas).map(([name, schema]) => {
    if (!IDENTIFIER.test(name)) throw new Error(`schema name ${name} is not a TypeScript identifier`);
    const doc = comment(schema.description, '');
    if (isObject(schema) && !schema.allOf && !schema.oneOf && !schema.anyOf) {
      return `${doc}export interface ${name} ${objectType(schema, name, '')}\n`;
    }
    return `${doc}export type ${name} =${spaced(typeOf(schema, name, ''))};\n`;
  });
  return `${HEADER}\n${declarations.join('\n')}`;
}

function isObject(schema: Schema): boolean {
  return schema.type === 'object' || (!schema.type && schema.properties !== undefined);
}

/** The TypeScript type of `schema`; `at` names the place for an error, `indent` is the current indentation. */
function typeOf(schema: Schema, at: string, indent: string): string {
  const type = baseTypeOf(schema, at, indent);
  return schema.nullable ? `${type} | null` : type;
}

function baseTypeOf(schema: Schema, at: string, indent: string): string {
  if (schema.$ref) return refName(schema.$ref, at);
  const union = schema.oneOf ?? schema.anyOf;
  if (union) return union.map((s, i) => parenthesize(typeOf(s, `${at}[${i}]`, indent))).join(' | ');
  if (schema.allOf) {
    return schema.allOf.map((s, i) => parenthesize(typeOf(s, `${at}[${i}]`, indent))).join(' & ');
  }
  if (schema.enum) return literalUnion(schema.enum, indent);
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      if (!schema.items) throw new Error(`${at}: an array without items`);
      return `${parenthesize(typeOf(schema.items, `${at}[]`, indent))}[]`;
    case 'object':
      return objectType(schema, at, indent);
    case undefined:
      if (schema.properties) return objectType(schema, at, indent);
      throw new Error(`${at}: a schema without a type, $ref or composition`);
  }
}

/** `{ a: string; b?: number }`, with an index signature when other properties are allowed. */
function objectType(schema: Schema, at: string, indent: string): string {
  const inner = `${indent}  `;
  const required = new Set(schema.required ?? []);
  const members = Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
    const optional = required.has(name) ? '' : '?';
    const type = typeOf(property, `${at}.${name}`, inner);
    return `${comment(property.description, inner)}${inner}${key}${optional}:${spaced(type)};\n`;
  });
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== false) {
    const value = extra === true ? 'unknown' : typeOf(extra, `${at}[key]`, inner);
    members.push(
      `${inner}[key: string]: ${members.length > 0 && value !== 'unknown' ? 'unknown' : value};\n`,
    );
  }
  // A bare `type: object` says nothing of its shape: any JSON object.
  if (members.length === 0) return 'Record<string, unknown>';
  return `{\n${members.join('')}${indent}}`;
}

function refName(ref: string, at: string): string {
  const match = /^#\/components\/schemas\/([A-Za-z_$][A-Za-z0-9_$]*)$/.exec(ref);
  if (!match) throw new Error(`${at}: cannot follow $ref ${ref}`);
  return match[1];
}

/** `'a' | 'b'`, one literal a line when that is too long for one. */
function literalUnion(values: Array<string | number | boolean>, indent: string): string {
  const literals = values.map((value) =>
    typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : String(value),
  );
  const line = literals.join(' | ');
  return line.length <= 80 ? line : literals.map((literal) => `\n${indent}  | ${literal}`).join('');
}

/** A type after `=` or `:`: a space unless it starts on the next line. */
function spaced(type: string): string {
  return type.startsWith('\n') ? type : ` ${type}`;
}

/** `(A | B)` where a union or intersection must bind tighter, e.g. before `[]`. */
function parenthesize(type: string): string {
  let depth = 0;
  for (const char of type) {
    if ('{[('.includes(char)) depth++;
    else if ('}])'.includes(char)) depth--;
    else if (depth === 0 && (char === '|' || char === '&')) return `(${type})`;
  }
  return type;
}

function comment(description: string | undefined, indent: string): string {
  if (!description) return '';
  return `${indent}/** ${description.replace(/\*\//g, '*\\/').replace(/\n/g, ` `)} */\n`;
}
