import fc from 'fast-check';

/** The parts of an OpenAPI 3 document the request generator reads. */
interface Schema {
  type?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  $ref?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}
interface Operation {
  parameters?: Array<{ in: string; name: string; schema?: Schema }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** One generated request: a route of the API, its parameters and a body that may be anything. */
export interface GeneratedRequest {
  method: string;
  /** The path with its parameters filled in and encoded. */
  path: string;
  /** JSON to send, or `raw` text sent as if it were JSON. */
  body?: unknown;
  raw?: string;
  /** The route as documented, to report what failed. */
  route: string;
}

const hostileText = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', ' ', '..', '../..', '%00', '\u0000', 'null', '-1', '1e309', '<script>', "' OR 1=1 --"),
  fc.integer({ min: 300, max: 20_000 }).map((n) => 'x'.repeat(n)),
);

function resolve(schema: Schema, document: OpenApiDocument): Schema {
  if (schema.$ref) return resolve(document.components.schemas[schema.$ref.split('/').pop() ?? ''], document);
  if (schema.allOf?.length === 1) return resolve(schema.allOf[0], document);
  return schema;
}

/**
 * Values near the schema: mostly of the documented type (so validation beyond the first check is reached),
 * sometimes of another type, out of range, or anything at all.
 */
function nearSchema(schema: Schema, document: OpenApiDocument, depth = 0): fc.Arbitrary<unknown> {
  const resolved = resolve(schema, document);
  const anything = fc.jsonValue({ maxDepth: 3 });
  let typed: fc.Arbitrary<unknown>;
  if (resolved.enum) typed = fc.oneof(fc.constantFrom(...resolved.enum), hostileText);
  else if (resolved.type === 'string') typed = hostileText;
  else if (resolved.type === 'number' || resolved.type === 'integer')
    typed = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 1, 2 ** 53, resolved.maximum ?? 1e9));
  else if (resolved.type === 'boolean') typed = fc.boolean();
  else if (resolved.type === 'array')
    typed = fc.array(
      resolved.items && depth < 3 ? nearSchema(resolved.items, document, depth + 1) : anything,
      {
        maxLength: 5,
      },
    );
  else if (resolved.properties && depth < 3) {
    const shape: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [name, property] of Object.entries(resolved.properties)) {
      shape[name] = nearSchema(property, document, depth + 1);
    }
    typed = fc.record(shape, { requiredKeys: [] });
  } else typed = fc.dictionary(fc.string({ maxLength: 12 }), anything, { maxKeys: 4 });
  return fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: anything });
}

/**
 * Requests for every operation of the document: path parameters are either `knownIds` (so the request
 * reaches body validation) or hostile text; bodies are near the schema, any JSON, or malformed JSON.
 */
export function requestsFrom(
  document: OpenApiDocument,
  knownIds: Record<string, string>,
  prefix: string,
): fc.Arbitrary<GeneratedRequest> {
  const perOperation: Array<fc.Arbitrary<GeneratedRequest>> = [];
  for (const [route, methods] of Object.entries(document.paths)) {
    if (!route.startsWith(prefix)) continue;
    for (const [method, operation] of Object.entries(methods)) {
      const pathParams = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      const queryParams = (operation.parameters ?? []).filter((p) => p.in === 'query');
      const params = fc.record(
        Object.fromEntries(
          pathParams.map((name) => [
            name,
            knownIds[name] ? fc.oneof(fc.constant(knownIds[name]), hostileText) : hostileText,
          ]),
        ) as Record<string, fc.Arbitrary<string>>,
      );
      const query = fc.record(
        Object.fromEntries(
          queryParams.map((p) => [p.name, fc.option(fc.oneof(hostileText, fc.integer().map(String)))]),
        ),
      );
      const schema = operation.requestBody?.content['application/json']?.schema;
      const body: fc.Arbitrary<{ body?: unknown; raw?: string }> = schema
        ? fc.oneof(
            { weight: 6, arbitrary: nearSchema(schema, document).map((value) => ({ body: value })) },
            { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => ({ body: value })) },
            {
              weight: 1,
              arbitrary: fc.tuple(nearSchema(schema, document), fc.nat()).map(([value, cut]) => {
                const text = JSON.stringify(value) ?? '';
                return { raw: `${text.slice(0, cut % (text.length + 1))}{` };
              }),
            },
          )
        : fc.constant({});
      perOperation.push(
        fc.tuple(params, query, body).map(([values, queryValues, payload]) => {
          let path = route.slice(prefix.length);
          for (const [name, value] of Object.entries(values)) {
            path = path.replace(`{${name}}`, encodeURIComponent(value));
          }
          const search = new URLSearchParams();
          for (const [name, value] of Object.entries(queryValues)) {
            if (typeof value === 'string') search.set(name, value);
          }
          const suffix = search.size > 0 ? `?${search.toString()}` : '';
          return { method: method.toUpperCase(), path: `${path}${suffix}`, route, ...payload };
        }),
      );
    }
  }
  return fc.oneof(...perOperation);
}
