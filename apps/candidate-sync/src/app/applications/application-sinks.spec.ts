import type { AtsClientFactory } from '@connector/ats-client-factory';
import { type AtsAdapter, AtsRegistry, MissingAtsPartError } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import { connectorSnapshot, FAKE_ATS, fakeAtsAdapter } from '@connector/ats-testing';
import type { CandidateSyncConfig } from '../candidate-sync.config';
import { ApplicationSinks } from './application-sinks';

describe(ApplicationSinks.name, () => {
  const client = jest.fn(() => ({}));
  // The product's adapters and a third ATS, in a registry of the test's own.
  const sinksOf = (...more: AtsAdapter[]) =>
    new ApplicationSinks(
      new AtsRegistry([...atsRegistry.all(), ...more]),
      { for: client } as unknown as AtsClientFactory,
      { BUDGET_WAIT_MS: 0, ATS_TIMEOUT_MS: 1_000 } as CandidateSyncConfig,
    );
  const sut = sinksOf(fakeAtsAdapter);
  const connector = (type: string) => ({
    ...connectorSnapshot({ id: 'c1', accountId: 'a1', type: 'ats-a', config: {} }),
    type,
  });

  it('has a sink for an ATS whose capabilities have applications', () => {
    expect(sut.for(connector('ats-a'))).toBeDefined();
    expect(client).toHaveBeenCalledTimes(1);
  });

  it('has a sink for every registered ATS whose capabilities declare applications', () => {
    expect(sut.missing()).toEqual([]);
  });

  it('answers unsupported (no sink) from the capabilities, for ATS-B and for a third ATS alike', () => {
    expect(atsRegistry.supports('ats-b', 'applications')).toBe(false);
    expect(sut.for(connector('ats-b'))).toBeUndefined();
    expect(sut.for(connector(FAKE_ATS))).toBeUndefined();
  });

  it('names a registered ATS that declares applications but whose adapter has no applicationSink (the check above can fail)', () => {
    const withApplications: AtsAdapter = {
      ...fakeAtsAdapter,
      type: 'fake-apps',
      capabilities: ['applications'],
    };
    const withThem = sinksOf(withApplications);
    expect(withThem.missing()).toEqual(['fake-apps']);
    expect(() => withThem.for(connector('fake-apps'))).toThrow(MissingAtsPartError);
  });
});
