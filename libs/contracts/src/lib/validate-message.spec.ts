import { createEvent } from './envelope';
import { RoutingKey } from './topology';
import { validateMessage } from './validate-message';

const candidate = {
  candidateId: 'c-1',
  firstName: 'Zoë',
  lastName: 'Ångström',
  email: 'zoe@example.com',
  address: { line1: '1 High St', countryCode: 'GB' },
  workHistory: [{ employer: 'Acme', title: 'Engineer', startDate: '2020-01', current: true }],
};

const removed = {
  candidateLinks: 1,
  applicationLinks: 0,
  documentLinks: 2,
  candidateRefs: 1,
  deadLetters: 0,
};
/** A client secret as the registry seals it (REQUEST_SEAL_KEYS); the values are only of the right shape. */
const sealed = { v: 1, kid: 'k1', iv: 'AAAAAAAAAAAAAAAA', tag: 'AAAAAAAAAAAAAAAAAAAAAA==', data: 'c2VjcmV0' };
const config = { baseUrl: 'https://ats.example.com', clientId: 'id', clientSecret: sealed };

/** A valid `data` per type whose nested objects are required, and that `data` with them broken. */
const NESTED: Array<[string, string, Record<string, unknown>, Record<string, unknown>, RegExp]> = [
  [
    RoutingKey.RunCompleted,
    'counts: []',
    {
      connectorId: 'k-1',
      runId: 'r-1',
      status: 'succeeded',
      counts: { fetched: 3, upserted: 1, unchanged: 2, closed: 0 },
      apiCalls: 4,
    },
    { counts: [] },
    /^data\.counts: counts must be an object$/,
  ],
  [
    RoutingKey.CandidateErasureCompleted,
    'removed: []',
    { candidateId: 'c-1', removed },
    { removed: [] },
    /^data\.removed: removed must be an object$/,
  ],
  [
    RoutingKey.ErasurePartCompleted,
    'removed: []',
    { candidateId: 'c-1', part: 'candidate-sync', removed },
    { removed: [] },
    /^data\.removed: removed must be an object$/,
  ],
  [
    RoutingKey.AuthConnectionTest,
    'config: []',
    { type: 'ats-a', config },
    { config: [] },
    /^data\.config: config must be an object$/,
  ],
  [
    RoutingKey.AuthCredentialsSave,
    'config: [[]]',
    { connectorId: 'k-1', type: 'ats-a', config },
    { config: [[]] },
    /^data\.config: config must be an object$/,
  ],
  [
    RoutingKey.CandidateCreated,
    'address: []',
    candidate,
    { address: [] },
    /^data\.address: address must be an object$/,
  ],
  [
    RoutingKey.ApplicationSubmitted,
    'vacancies: [[]]',
    { applicationId: 'ap1', candidateId: 'c1', vacancies: [{ connectorId: 'k-1', externalId: '42' }] },
    { vacancies: [[]] },
    /^data\.vacancies: each value in vacancies must be an object$/,
  ],
];

describe(validateMessage.name, () => {
  it('takes a set-up request’s config as an object: its fields and seals are checked by auth-gateway', () => {
    // Which fields are secret is the ATS adapter's (its `clientCredentials`): auth-gateway refuses one in clear,
    // INVALID_REQUEST, before anything (sealed-request.spec.ts). The contract checks the envelope's shape.
    for (const type of [RoutingKey.AuthConnectionTest, RoutingKey.AuthCredentialsSave]) {
      const result = validateMessage(
        JSON.stringify(createEvent(type, 'acct_1', { connectorId: 'k-1', type: 'ats-a', config: 'hunter2' })),
      );
      expect(result.ok || result.errors).toContain('data.config: config must be an object');
      expect(JSON.stringify(result.ok || result.errors)).not.toContain('hunter2');
    }
    const noType = validateMessage(
      JSON.stringify(createEvent(RoutingKey.AuthConnectionTest, 'acct_1', { config: {} })),
    );
    expect(noType.ok || noType.errors).toEqual(
      expect.arrayContaining([expect.stringMatching(/^data\.type: /)]),
    );
  });

  it('accepts a valid candidate.created event and returns typed data', () => {
    const event = createEvent(RoutingKey.CandidateCreated, 'acct_1', candidate);
    const result = validateMessage(JSON.stringify(event), RoutingKey.CandidateCreated);
    expect(result).toMatchObject({ ok: true, message: { id: event.id, data: { firstName: 'Zoë' } } });
  });

  it('refuses a body that is not JSON', () => {
    const result = validateMessage(Buffer.from('{nope'));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors[0]).toMatch(/not JSON/);
  });

  it('names every invalid field with its path', () => {
    const event = createEvent(RoutingKey.CandidateCreated, 'acct_1', {
      ...candidate,
      email: 'not-an-email',
      workHistory: [{ employer: 'Acme', title: 'Engineer', startDate: '2020-13' }],
    });
    const result = validateMessage(JSON.stringify(event));
    expect(result.ok).toBe(false);
    const errors = result.ok ? [] : result.errors;
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^data\.email: /),
        expect.stringMatching(/^data\.workHistory\.0\.startDate: startDate must be YYYY-MM/),
      ]),
    );
  });

  it('refuses unknown types, newer versions and a type that differs from the routing key', () => {
    const unknown = validateMessage(JSON.stringify(createEvent('candidate.deleted', 'a', {})));
    expect(unknown.ok || unknown.errors).toEqual(['type "candidate.deleted" is unknown']);

    const newer = createEvent(RoutingKey.CandidateCreated, 'a', candidate, { version: 2 });
    const newerResult = validateMessage(JSON.stringify(newer));
    expect(newerResult.ok || newerResult.errors).toEqual([
      expect.stringMatching(/version 2 .* not supported/),
    ]);

    const mismatch = validateMessage(
      JSON.stringify(createEvent(RoutingKey.CandidateCreated, 'a', candidate)),
      'x',
    );
    expect(mismatch.ok || mismatch.errors).toEqual([expect.stringMatching(/does not match routing key "x"/)]);
  });

  it('refuses a missing envelope field', () => {
    const { accountId: _accountId, ...withoutAccount } = createEvent(RoutingKey.DocumentUploaded, 'a', {});
    const result = validateMessage(JSON.stringify(withoutAccount));
    expect(result.ok || result.errors).toEqual(
      expect.arrayContaining([expect.stringMatching(/^accountId: /)]),
    );
  });

  it('requires at least one vacancy on an application', () => {
    const event = createEvent(RoutingKey.ApplicationSubmitted, 'a', {
      applicationId: 'ap1',
      candidateId: 'c1',
      vacancies: [],
    });
    const result = validateMessage(JSON.stringify(event));
    expect(result.ok || result.errors).toEqual([expect.stringMatching(/^data\.vacancies: /)]);
  });

  it('refuses a body nested deeper than any message, at any depth, without throwing', () => {
    const event = createEvent(RoutingKey.ApplicationSubmitted, 'a', {
      applicationId: 'ap1',
      candidateId: 'c1',
      vacancies: ['NESTED'],
    });
    for (const depth of [40, 5_000, 50_000]) {
      const nested = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      const result = validateMessage(JSON.stringify(event).replace('"NESTED"', nested));
      expect(result.ok || result.errors).toEqual(['body is nested deeper than 32 levels']);
    }
  });

  it.each(NESTED)('accepts the valid %s sample', (type, _case, data) => {
    const result = validateMessage(JSON.stringify(createEvent(type, 'a', data)), type);
    expect(result.ok || result.errors).toBe(true);
  });

  it.each(NESTED)(
    'refuses %s with %s: an array where its object belongs',
    (type, _case, data, broken, error) => {
      const result = validateMessage(JSON.stringify(createEvent(type, 'a', { ...data, ...broken })), type);
      expect(result.ok || result.errors).toEqual([expect.stringMatching(error)]);
    },
  );
});
