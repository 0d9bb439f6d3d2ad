import { adminApiTypes } from './admin-api-types';

const declarations = (schemas: Record<string, unknown>) =>
  adminApiTypes({ components: { schemas } } as Parameters<typeof adminApiTypes>[0])
    .split('\n')
    .filter((line) => !line.startsWith('//'))
    .join('\n')
    .trim();

describe(adminApiTypes.name, () => {
  it('declares an object schema as an interface, optional where not required, null where nullable', () => {
    expect(
      declarations({
        Run: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            finishedAt: { type: 'string', format: 'date-time', nullable: true, description: 'when it ended' },
            count: { type: 'integer' },
          },
          required: ['id', 'finishedAt'],
        },
      }),
    ).toBe(
      [
        'export interface Run {',
        '  id: string;',
        '  /** when it ended */',
        '  finishedAt: string | null;',
        '  count?: number;',
        '}',
      ].join('\n'),
    );
  });

  it('follows $ref, arrays, enums, single-element allOf and oneOf', () => {
    expect(
      declarations({
        List: {
          type: 'object',
          properties: {
            runs: { type: 'array', items: { $ref: '#/components/schemas/Run' } },
            mode: { type: 'string', enum: ['full', 'incremental'] },
            last: { allOf: [{ $ref: '#/components/schemas/Run' }] },
            sources: {
              type: 'array',
              items: { oneOf: [{ type: 'string' }, { type: 'number' }] },
            },
            extra: { type: 'object', additionalProperties: { type: 'boolean' } },
            any: { type: 'object' },
          },
          required: ['runs', 'mode', 'last', 'sources', 'extra', 'any'],
        },
      }),
    ).toBe(
      [
        'export interface List {',
        '  runs: Run[];',
        "  mode: 'full' | 'incremental';",
        '  last: Run;',
        '  sources: (string | number)[];',
        '  extra: {',
        '    [key: string]: boolean;',
        '  };',
        '  any: Record<string, unknown>;',
        '}',
      ].join('\n'),
    );
  });

  it('refuses what it cannot translate, naming where, rather than writing unknown', () => {
    expect(() => declarations({ Odd: { type: 'object', properties: { x: {} } } })).toThrow(
      'Odd.x: a schema without a type, $ref or composition',
    );
    expect(() =>
      declarations({ Far: { type: 'object', properties: { x: { $ref: 'other.json#/Thing' } } } }),
    ).toThrow('Far.x: cannot follow $ref other.json#/Thing');
  });
});
