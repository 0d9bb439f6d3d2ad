import { AtsBError } from './ats-b.error';
import { CANDIDATE_RULES, validateEntityBody, WORK_HISTORY_RULES } from './candidate.validation';
import { DEFAULT_CANDIDATE_STATUSES } from './ats-b-sandbox.options';

const statuses = { allowedStatuses: DEFAULT_CANDIDATE_STATUSES };
const errorsOf = (fn: () => unknown): { propertyName: string; type: string }[] => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AtsBError)
      return (err.toBody().messages ?? []).map(({ propertyName, type }) => ({ propertyName, type }));
    throw err;
  }
  throw new Error('expected a validation error');
};

describe('validateEntityBody (Candidate)', () => {
  it('accepts a full valid candidate', () => {
    const body = {
      firstName: 'Zoë',
      lastName: 'Łukasz',
      name: 'Zoë Łukasz',
      email: 'z@example.com',
      phone: '+31 20 123',
      mobile: '+31 6 1234',
      address: {
        address1: 'Dam 1',
        address2: null,
        city: 'Amsterdam',
        state: 'NH',
        zip: '1012',
        countryID: 2359,
      },
      status: 'New Lead',
      source: 'Career site',
    };
    expect(validateEntityBody(CANDIDATE_RULES, body, 'insert', statuses)).toEqual(body);
  });

  it('requires name and status on insert, not on update', () => {
    expect(
      errorsOf(() => validateEntityBody(CANDIDATE_RULES, { firstName: 'A' }, 'insert', statuses)),
    ).toEqual([
      { propertyName: 'name', type: 'REQUIRED_FIELD_MISSING' },
      { propertyName: 'status', type: 'REQUIRED_FIELD_MISSING' },
    ]);
    expect(validateEntityBody(CANDIDATE_RULES, { firstName: 'A' }, 'update', statuses)).toEqual({
      firstName: 'A',
    });
  });

  it('refuses unknown fields, long values, bad types and unknown statuses', () => {
    const body = {
      name: 'x',
      status: 'Hired!',
      foo: 1,
      lastName: 'x'.repeat(51),
      email: 'e'.repeat(101),
      phone: '1'.repeat(21),
      source: 's'.repeat(201),
      address: { city: 'A', country: 'NL' },
      mobile: 12,
    };
    const errors = errorsOf(() => validateEntityBody(CANDIDATE_RULES, body, 'insert', statuses));
    expect(errors).toEqual(
      expect.arrayContaining([
        { propertyName: 'foo', type: 'INVALID_FIELD' },
        { propertyName: 'lastName', type: 'VALUE_TOO_LONG' },
        { propertyName: 'email', type: 'VALUE_TOO_LONG' },
        { propertyName: 'phone', type: 'VALUE_TOO_LONG' },
        { propertyName: 'source', type: 'VALUE_TOO_LONG' },
        { propertyName: 'address.country', type: 'INVALID_FIELD' },
        { propertyName: 'mobile', type: 'INVALID_TYPE' },
        { propertyName: 'status', type: 'INVALID_VALUE' },
      ]),
    );
  });

  it('checks work history dates are epoch ms and candidate is a reference', () => {
    expect(
      errorsOf(() =>
        validateEntityBody(WORK_HISTORY_RULES, { candidate: 5, startDate: '2020-01' }, 'insert'),
      ),
    ).toEqual([
      { propertyName: 'candidate', type: 'INVALID_TYPE' },
      { propertyName: 'startDate', type: 'INVALID_TYPE' },
    ]);
  });
});
