import { ATS_ADAPTERS, atsRegistry } from './ats-adapters';

describe('the product’s registry (atsRegistry)', () => {
  it('is frozen: a spec that adds an ATS to it, for every other spec of its process, fails', () => {
    const another = { ...ATS_ADAPTERS[0], type: 'another-ats' };
    expect(() => atsRegistry.register(another)).toThrow(/frozen: another-ats is not added/);
    expect(atsRegistry.types()).toEqual(ATS_ADAPTERS.map((adapter) => adapter.type));
  });
});
