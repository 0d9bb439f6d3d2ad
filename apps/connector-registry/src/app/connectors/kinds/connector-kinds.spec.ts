import { AtsRegistry, MissingAtsPartError, UnknownAtsTypeError } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import { FAKE_ATS, fakeAtsAdapter } from '@connector/ats-testing';
import type { AuthGatewayClient } from '../../clients/auth-gateway.client';
import { ConnectorKinds } from './connector-kinds';

describe(ConnectorKinds.name, () => {
  // The product's adapters, in a registry of the test's own (a third ATS joins it below).
  const registry = new AtsRegistry(atsRegistry.all());
  const sut = new ConnectorKinds(registry, {} as AuthGatewayClient);

  it('has a connector kind for every registered ATS', () => {
    expect(sut.missing()).toEqual([]);
    for (const type of atsRegistry.types()) expect(sut.of(type).atsType).toBe(type);
  });

  it('refuses a name no adapter is registered for', () => {
    expect(() => sut.of('nope')).toThrow(UnknownAtsTypeError);
  });

  it('names a registered ATS without a connector kind (the check above can fail)', () => {
    registry.register(fakeAtsAdapter);
    expect(sut.missing()).toEqual([FAKE_ATS]);
    expect(() => sut.of(FAKE_ATS)).toThrow(MissingAtsPartError);
  });
});
