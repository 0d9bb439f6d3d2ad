import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { RoutingKey } from '@connector/contracts';

/** One message as a hostile or broken producer might put it on `platform.events`. */
export interface HostileMessage {
  /** What kind of damage it carries, for the test's report. */
  kind: string;
  routingKey: string;
  /** The AMQP message id: how the failure log finds it whatever the body holds. */
  messageId: string;
  body: Buffer;
}

const ACCOUNT = fc.constantFrom('acct_fuzz');
const PLATFORM_KEYS = [
  RoutingKey.CandidateCreated,
  RoutingKey.CandidateUpdated,
  RoutingKey.ApplicationSubmitted,
  RoutingKey.ApplicationUpdated,
  RoutingKey.DocumentUploaded,
] as const;

const validCandidate = (candidateId: string) => ({
  candidateId,
  firstName: 'Fuzz',
  lastName: 'Tester',
  email: `${candidateId}@example.com`,
});

const envelope = (type: string, accountId: string, data: unknown) => ({
  id: randomUUID(),
  type,
  version: 1,
  occurredAt: new Date().toISOString(),
  accountId,
  data,
});

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/** A value of another JSON type than a string: what a producer with a schema bug sends. */
const notAString = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);

/** How class-transformer's Number() reads it; null-prototype objects have no primitive value. */
const asNumber = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? NaN : Number(value);

/** Each arbitrary is one family of damage; every message it makes must be refused. */
const families: Array<fc.Arbitrary<Omit<HostileMessage, 'messageId'>>> = [
  // A required field of the wrong JSON type.
  fc
    .tuple(fc.constantFrom('candidateId', 'firstName', 'lastName', 'email'), notAString, ACCOUNT)
    .map(([field, value, account]) => ({
      kind: 'wrong type',
      routingKey: RoutingKey.CandidateCreated,
      body: json(
        envelope(RoutingKey.CandidateCreated, account, { ...validCandidate('c-x'), [field]: value }),
      ),
    })),
  // Strings far over their limits (up to a megabyte).
  fc
    .tuple(fc.constantFrom('firstName', 'email', 'candidateId'), fc.integer({ min: 10_000, max: 1_000_000 }))
    .map(([field, size]) => ({
      kind: 'huge string',
      routingKey: RoutingKey.CandidateUpdated,
      body: json(
        envelope(RoutingKey.CandidateUpdated, 'acct_fuzz', {
          ...validCandidate('c-huge'),
          [field]: 'x'.repeat(size),
        }),
      ),
    })),
  // Deep nesting where an object is expected.
  fc.integer({ min: 200, max: 20_000 }).map((depth) => {
    // Written as text: JSON.stringify itself overflows the stack at such depths.
    const nested = `${'{"a":'.repeat(depth)}"bottom"${'}'.repeat(depth)}`;
    const event = envelope(RoutingKey.ApplicationSubmitted, 'acct_fuzz', {
      applicationId: 'a-deep',
      candidateId: 'c-deep',
      vacancies: ['NESTED'],
    });
    return {
      kind: 'deep nesting',
      routingKey: RoutingKey.ApplicationSubmitted,
      body: Buffer.from(JSON.stringify(event).replace('"NESTED"', nested)),
    };
  }),
  // A type nobody handles, on a routing key someone consumes.
  fc
    .tuple(fc.constantFrom(...PLATFORM_KEYS), fc.string({ minLength: 1, maxLength: 40 }))
    .filter(([key, type]) => type !== key)
    .map(([routingKey, type]) => ({
      kind: 'unknown type',
      routingKey,
      body: json(envelope(type, 'acct_fuzz', validCandidate('c-unknown'))),
    })),
  // JSON cut short or not JSON at all.
  fc
    .tuple(fc.constantFrom(...PLATFORM_KEYS), fc.integer({ min: 1, max: 60 }), fc.string({ maxLength: 30 }))
    .map(([routingKey, cut, tail]) => ({
      kind: 'broken JSON',
      routingKey,
      body: Buffer.from(
        JSON.stringify(envelope(routingKey, 'acct_fuzz', validCandidate('c-b'))).slice(0, cut) + tail,
      ),
    })),
  // Bytes that are not UTF-8 (or UTF-8 with a byte-order mark and garbage).
  fc
    .tuple(fc.constantFrom(...PLATFORM_KEYS), fc.uint8Array({ minLength: 1, maxLength: 64 }))
    .map(([routingKey, bytes]) => ({
      kind: 'bad encoding',
      routingKey,
      body: Buffer.concat([Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from(bytes)]),
    })),
  // Valid JSON that is not an envelope.
  fc
    .tuple(
      fc.constantFrom(...PLATFORM_KEYS),
      fc.oneof(fc.integer(), fc.constant(null), fc.string(), fc.array(fc.integer(), { maxLength: 3 })),
    )
    .map(([routingKey, value]) => ({ kind: 'not an envelope', routingKey, body: json(value) })),
  // An envelope missing one of its fields, or with one of the wrong type.
  fc
    .tuple(
      fc.constantFrom('id', 'type', 'version', 'occurredAt', 'accountId', 'data'),
      fc.boolean(),
      notAString,
    )
    // A number that reads as a version ≥ 1 would make a valid envelope.
    .filter(([field, drop, value]) => drop || field !== 'version' || !(asNumber(value) >= 1))
    .map(([field, drop, value]) => {
      const message: Record<string, unknown> = envelope(
        RoutingKey.CandidateCreated,
        'acct_fuzz',
        validCandidate('c-env'),
      );
      if (drop) delete message[field];
      else message[field] = field === 'data' ? 'not an object' : value;
      return { kind: 'broken envelope', routingKey: RoutingKey.CandidateCreated, body: json(message) };
    }),
];

/** `count` hostile messages, the same ones for the same seed. */
export function hostileMessages(count: number, seed: number): HostileMessage[] {
  return fc
    .sample(fc.oneof(...families), { numRuns: count, seed })
    .map((message) => ({ ...message, messageId: randomUUID() }));
}
