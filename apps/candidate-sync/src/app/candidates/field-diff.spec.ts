import { canonicalJson, changedFields, hashFields, hashOf } from './field-diff';

describe('field diff', () => {
  it('hashes equal values equally whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}');
    expect(hashOf({ b: 1, a: 2 })).toBe(hashOf({ a: 2, b: 1 }));
  });

  it('sends only the fields that changed since the last send', () => {
    const before = { FirstName: 'Ada', Surname: 'Lovelace', Telephone: '1', Address: { Town: 'London' } };
    const sent = hashFields(before);
    expect(changedFields(before, sent)).toEqual({});
    expect(changedFields({ ...before, Telephone: null, Address: { Town: 'Paris' } }, sent)).toEqual({
      Telephone: null,
      Address: { Town: 'Paris' },
    });
  });

  it('sends everything when nothing is known of what the ATS holds', () => {
    expect(changedFields({ a: 1, b: null }, {})).toEqual({ a: 1, b: null });
  });
});
