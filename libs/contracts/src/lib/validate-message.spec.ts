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

describe(validateMessage.name, () => {
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
});
