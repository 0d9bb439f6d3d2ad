import type { AtsAdapter, AtsCapability } from './ats-adapter';
import { AtsParts, MissingAtsPartError } from './ats-parts';
import { AtsRegistry, UnknownAtsTypeError } from './ats-registry';

const adapter = (type: string, capabilities: AtsCapability[]): AtsAdapter => ({
  type,
  label: type.toUpperCase(),
  capabilities,
  mapping: {
    atsType: type,
    sourcePaths: new Set(),
    defaults: { fields: {} },
  } as unknown as AtsAdapter['mapping'],
  accessOf: (access) => access,
  callTokenOf: () => 'token',
});

describe(AtsParts.name, () => {
  const registry = new AtsRegistry([
    adapter('one', ['vacancies', 'applications']),
    adapter('two', ['vacancies']),
    adapter('three', ['vacancies', 'applications']),
  ]);
  const part = (atsType: string) => ({ atsType, name: `${atsType}'s sink` });

  it('finds the part of a type by the adapter it names', () => {
    const sut = new AtsParts('application sink', registry, [part('one'), part('three')], 'applications');
    expect(sut.find('three')).toEqual(part('three'));
    expect(sut.missing()).toEqual([]);
  });

  it('answers unsupported (undefined) for an ATS whose capabilities lack the capability', () => {
    const sut = new AtsParts('application sink', registry, [part('one'), part('three')], 'applications');
    expect(sut.find('two')).toBeUndefined();
    expect(() => sut.get('two')).toThrow('two does not support applications: no application sink');
  });

  it('names the ATSs that declare the capability and have no part (the check a service test makes)', () => {
    const sut = new AtsParts('application sink', registry, [part('one')], 'applications');
    expect(sut.missing()).toEqual(['three']);
    expect(() => sut.find('three')).toThrow(MissingAtsPartError);
    expect(() => sut.find('three')).toThrow('three has no application sink (its capabilities declare one)');
  });

  it('without a capability, needs a part for every registered ATS', () => {
    const sut = new AtsParts('connector kind', registry, [part('one'), part('two')]);
    expect(sut.missing()).toEqual(['three']);
    expect(sut.get('two')).toEqual(part('two'));
  });

  it('refuses an unknown ATS (find: unsupported) and two parts for one', () => {
    const sut = new AtsParts('connector kind', registry, [part('one')]);
    expect(() => sut.get('nope')).toThrow(UnknownAtsTypeError);
    expect(sut.find('nope')).toBeUndefined();
    expect(() => new AtsParts('connector kind', registry, [part('one'), part('one')])).toThrow(
      'two connector kinds for one',
    );
  });
});

describe(AtsRegistry.name, () => {
  it('refuses a new adapter once frozen, and keeps what it had', () => {
    const sut = new AtsRegistry([adapter('one', ['vacancies'])]);
    sut.register(adapter('two', ['vacancies']));
    expect(sut.freeze()).toBe(sut);
    expect(() => sut.register(adapter('three', ['vacancies']))).toThrow(
      'this ATS registry is frozen: three is not added (build your own: new AtsRegistry([...]))',
    );
    expect(sut.types()).toEqual(['one', 'two']);
  });
});
