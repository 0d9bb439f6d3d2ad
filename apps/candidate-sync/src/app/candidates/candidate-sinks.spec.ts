import { AtsACandidateSink } from '@connector/ats-a';
import type { AtsClientFactory } from '@connector/ats-client-factory';
import { AtsBCandidateSink } from '@connector/ats-b';
import { type AtsAdapter, AtsRegistry, FieldHasher, MissingAtsPartError } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import { connectorSnapshot, FAKE_ATS, fakeAtsAdapter } from '@connector/ats-testing';
import type { CandidateSyncConfig } from '../candidate-sync.config';
import { CandidateSinks } from './candidate-sinks';

describe(CandidateSinks.name, () => {
  const clients = { for: jest.fn(() => ({})) };
  // The product's adapters (and more), in a registry of the test's own.
  const sinksOf = (...more: AtsAdapter[]) =>
    new CandidateSinks(
      new AtsRegistry([...atsRegistry.all(), ...more]),
      clients as unknown as AtsClientFactory,
      { BUDGET_WAIT_MS: 5, ATS_TIMEOUT_MS: 1_000 } as CandidateSyncConfig,
      new FieldHasher('secret'),
    );
  const sut = sinksOf();
  const connector = (type: string) => ({
    ...connectorSnapshot({ id: 'c1', accountId: 'a1', type: 'ats-a', config: {} }),
    type,
  });

  it('has a sink for every registered ATS whose capabilities declare candidates', () => {
    expect(sut.missing()).toEqual([]);
  });

  it("makes the connector's ATS's sink with the push options of the message", () => {
    expect(sut.for(connector('ats-a'), 'm1')).toBeInstanceOf(AtsACandidateSink);
    expect(sut.for(connector('ats-b'))).toBeInstanceOf(AtsBCandidateSink);
    expect(clients.for).toHaveBeenCalledWith(expect.objectContaining({ id: 'c1', type: 'ats-a' }), {
      priority: 'push',
      maxWaitMs: 5,
      timeoutMs: 1_000,
      waiter: { id: 'm1', kind: 'message' },
    });
  });

  it('names a registered ATS that declares candidates but whose adapter has no candidateSink (the check above can fail)', () => {
    const withFake = sinksOf(fakeAtsAdapter);
    expect(withFake.missing()).toEqual([FAKE_ATS]);
    expect(() => withFake.for(connector(FAKE_ATS))).toThrow(MissingAtsPartError);
  });
});
