import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import fc from 'fast-check';
import { EnvelopeDto } from './envelope';
import { MESSAGE_DATA, type MessageType } from './message-types';
import { RoutingKey } from './topology';
import { validByMetadata } from './valid-by-metadata';

/** The verdict validByMetadata must give: class-validator's, as validateMessage asks it. */
const classValidatorSays = (object: object) =>
  validateSync(object, { forbidUnknownValues: true }).length === 0;

const work = {
  employer: 'Acme',
  title: 'Engineer',
  startDate: '2020-01',
  endDate: '2022-12',
  current: false,
};
const study = { institution: 'University', degree: 'BSc', fieldOfStudy: 'Maths', startDate: '2015-09' };

/** A valid `data` of the types with the most rules, every optional field filled (checked below). */
const SAMPLES: Array<[MessageType, Record<string, unknown>]> = [
  [
    RoutingKey.CandidateCreated,
    {
      candidateId: 'c-1',
      firstName: 'Zoë',
      lastName: 'Ångström',
      email: 'zoe@example.com',
      phone: '+44 20 7946 0000',
      mobile: '+44 7700 900000',
      address: {
        line1: '1 High St',
        line2: 'Flat 2',
        city: 'London',
        region: 'LDN',
        postalCode: 'N1',
        countryCode: 'GB',
      },
      workHistory: [work, { ...work, current: true, endDate: undefined, description: 'Built things' }],
      education: [study],
      source: 'careers-site',
    },
  ],
  [
    RoutingKey.ApplicationSubmitted,
    {
      applicationId: 'a-1',
      candidateId: 'c-1',
      vacancies: [{ connectorId: 'k-1', externalId: '42' }],
      answers: [{ questionId: 'q-1', question: 'Notice period?', answer: '' }],
    },
  ],
  [
    RoutingKey.DocumentUploaded,
    {
      documentId: 'd-1',
      candidateId: 'c-1',
      kind: 'cv',
      fileName: 'cv.pdf',
      contentType: 'application/pdf',
      sizeBytes: 1234,
      sha256: 'a'.repeat(64),
      url: 'https://files.example.com/cv.pdf',
    },
  ],
  [RoutingKey.CandidateErased, { candidateId: 'c-1' }],
  [
    RoutingKey.CandidateSynced,
    { connectorId: 'k-1', candidateId: 'c-1', externalId: '7', action: 'created' },
  ],
  [
    RoutingKey.OperationFailed,
    {
      connectorId: 'k-1',
      sourceEventId: 'e-1',
      sourceType: 'candidate.created',
      reason: 'x',
      retryable: true,
      errors: ['a'],
      code: 'C',
    },
  ],
];

const ENVELOPE = {
  id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
  type: RoutingKey.CandidateCreated,
  version: 1,
  occurredAt: '2026-11-26T10:00:00.000Z',
  accountId: 'acct_1',
  correlationId: 'corr-1',
  data: {},
};

/** What a broken or hostile producer puts where a value belongs. */
const HOSTILE: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'x'.repeat(5001),
  0,
  -1,
  1.5,
  2 ** 53,
  Number.NaN,
  true,
  false,
  [],
  [null],
  [undefined],
  [{}],
  [[]],
  [[{}]],
  {},
  { line1: 'x' },
  '2020-13',
  '2020-1',
  'not-an-email',
  'https://',
  'ftp://x.example.com/a',
  'created',
  'GB',
  'gb',
  'XX',
  '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
  '2026-11-26',
  'b'.repeat(64),
  [work],
  [study, null],
  Array.from({ length: 51 }, () => work),
];

/** Every path of a JSON value (objects and arrays), the root left out. */
function pathsOf(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value !== 'object' || value === null) return [];
  const keys: Array<string | number> = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return keys.flatMap((key) => [
    [...prefix, key],
    ...pathsOf((value as Record<string | number, unknown>)[key], [...prefix, key]),
  ]);
}

function withValueAt(root: unknown, path: Array<string | number>, value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (value === undefined && !Array.isArray(at)) delete at[last];
  else at[last] = value;
  return copy;
}

/** Both verdicts on `data` as validateMessage makes it (class-transformer first), and on the envelope. */
function verdicts(type: MessageType, data: unknown) {
  const dataInstance = plainToInstance(MESSAGE_DATA[type] as new () => object, data);
  const envelope = plainToInstance(EnvelopeDto, { ...ENVELOPE, type, data });
  return {
    data: [validByMetadata(dataInstance), classValidatorSays(dataInstance)],
    envelope: [validByMetadata(envelope), classValidatorSays(envelope)],
  };
}

describe(validByMetadata.name, () => {
  it.each(SAMPLES)('accepts the valid %s sample, as class-validator does', (type, data) => {
    expect(verdicts(type, data)).toEqual({ data: [true, true], envelope: [true, true] });
  });

  it.each(SAMPLES)(
    'agrees with class-validator on every field of %s replaced by hostile values',
    (type, data) => {
      let refused = 0;
      for (const path of [...pathsOf(data), ['unknownProperty']]) {
        for (const value of HOSTILE) {
          const mutated = withValueAt(data, path, value);
          const { data: both } = verdicts(type, mutated);
          if (both[0] !== both[1]) throw new Error(`${path.join('.')} = ${JSON.stringify(value)}: ${both}`);
          if (!both[1]) refused++;
        }
      }
      expect(refused).toBeGreaterThan(0);
    },
  );

  it('agrees with class-validator on random values at random places, for every message type', () => {
    const types = Object.keys(MESSAGE_DATA) as MessageType[];
    const samples = new Map(SAMPLES);
    fc.assert(
      fc.property(
        fc.constantFrom(...types),
        fc.anything({ withNullPrototype: false }),
        fc.nat(),
        (type, value, pick) => {
          const base = samples.get(type) ?? {};
          const paths = [...pathsOf(base), ['unknownProperty']];
          const data = pick % 7 === 0 ? value : withValueAt(base, paths[pick % paths.length], value);
          if (typeof data !== 'object' || data === null) return true; // validateMessage refuses these first
          const { data: both, envelope } = verdicts(type, data);
          return both[0] === both[1] && envelope[0] === envelope[1];
        },
      ),
      { numRuns: 3000, seed: 17 },
    );
  });

  it('refuses the envelope fields class-validator refuses', () => {
    for (const path of Object.keys(ENVELOPE).map((key) => [key])) {
      for (const value of HOSTILE) {
        const envelope = plainToInstance(EnvelopeDto, withValueAt(ENVELOPE, path, value));
        expect([path[0], value, validByMetadata(envelope)]).toEqual([
          path[0],
          value,
          classValidatorSays(envelope),
        ]);
      }
    }
  });

  it('has no verdict of its own for an object of a class without rules: refused, as class-validator does', () => {
    class Unknown {
      field = 1;
    }
    expect(validByMetadata(new Unknown())).toBe(false);
    expect(classValidatorSays(new Unknown())).toBe(false);
    expect(validByMetadata({ candidateId: 'c-1' })).toBe(false);
    expect(validByMetadata({ constructor: 'not a class' })).toBe(false);
  });
});
