import { createHmac } from 'node:crypto';
import { canonicalJson, FieldHasher, legacyHashOf } from './field-diff';

describe(FieldHasher.name, () => {
  const hasher = new FieldHasher('k'.repeat(32));

  it('hashes equal values equally whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}');
    expect(hasher.hash({ b: 1, a: 2 })).toBe(hasher.hash({ a: 2, b: 1 }));
  });

  it('gives the hashes already stored: HMAC-SHA256 of the JSON, keys in localeCompare order', () => {
    // Stored hashes decide what is sent again and which ATS-B child records exist: they must not change.
    const value = { startDate: '2020', starta: 1, Employer: 'Acme', b: [{ z: 1, a: 2 }] };
    const json = '{"b":[{"a":2,"z":1}],"Employer":"Acme","starta":1,"startDate":"2020"}';
    expect(canonicalJson(value)).toBe(json);
    expect(hasher.hash(value)).toBe(
      createHmac('sha256', 'k'.repeat(32)).update(json).digest('hex').slice(0, 32),
    );
  });

  it('keys its hashes: another key, or none, gives another hash of the same email', () => {
    const email = 'ada@example.com';
    expect(hasher.hash(email)).not.toBe(new FieldHasher('x'.repeat(32)).hash(email));
    expect(hasher.hash(email)).not.toBe(legacyHashOf(email));
    expect(hasher.hash(email)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('sends only the fields that changed since the last send', () => {
    const before = { FirstName: 'Ada', Surname: 'Lovelace', Telephone: '1', Address: { Town: 'London' } };
    const sent = hasher.fields(before);
    expect(hasher.changed(before, sent)).toEqual({});
    expect(hasher.changed({ ...before, Telephone: null, Address: { Town: 'Paris' } }, sent)).toEqual({
      Telephone: null,
      Address: { Town: 'Paris' },
    });
  });

  it('sends everything when nothing is known of what the ATS holds, or it was hashed under another key', () => {
    expect(hasher.changed({ a: 1, b: null }, {})).toEqual({ a: 1, b: null });
    const underOldKey = new FieldHasher('o'.repeat(32)).fields({ a: 1 });
    expect(hasher.changed({ a: 1 }, underOldKey)).toEqual({ a: 1 });
  });
});
