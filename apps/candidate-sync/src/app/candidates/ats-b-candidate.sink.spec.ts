import { FieldHasher, legacyHashOf } from './field-diff';
import { rekeyLegacyChild } from './ats-b-candidate.sink';

describe(rekeyLegacyChild.name, () => {
  const hasher = new FieldHasher('k'.repeat(32));
  const entry = { companyName: 'Acme', title: 'Engineer', startDate: 0, endDate: null, comments: null };

  it('keeps a child recorded under the unkeyed hash, under its keyed one, so it is not created again', () => {
    const state = { fields: {}, children: { [`work:${legacyHashOf(entry)}`]: 41, 'education:other': 7 } };
    expect(rekeyLegacyChild(state, 'work', entry, hasher).children).toEqual({
      [`work:${hasher.hash(entry)}`]: 41,
      'education:other': 7,
    });
  });

  it('leaves the state alone when no legacy key matches', () => {
    const state = { fields: {}, children: { [`work:${hasher.hash(entry)}`]: 41 } };
    expect(rekeyLegacyChild(state, 'work', entry, hasher)).toBe(state);
  });
});
