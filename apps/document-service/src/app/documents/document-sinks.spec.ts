import { AtsADocumentSink } from '@connector/ats-a';
import type { AtsClientFactory } from '@connector/ats-client-factory';
import { AtsBDocumentSink } from '@connector/ats-b';
import { type AtsAdapter, AtsRegistry, MissingAtsPartError } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import { connectorSnapshot, fakeAtsAdapter } from '@connector/ats-testing';
import type { DocumentServiceConfig } from '../document-service.config';
import { DocumentSinks } from './document-sinks';

describe(DocumentSinks.name, () => {
  const clients = { for: jest.fn(() => ({})) };
  // The product's adapters (and more), in a registry of the test's own.
  const sinksOf = (...more: AtsAdapter[]) =>
    new DocumentSinks(
      new AtsRegistry([...atsRegistry.all(), ...more]),
      clients as unknown as AtsClientFactory,
      { BUDGET_WAIT_MS: 5, ATS_TIMEOUT_MS: 1_000 } as DocumentServiceConfig,
    );
  const sut = sinksOf();
  const connector = (type: string, options: Record<string, unknown> = {}) => ({
    ...connectorSnapshot({ id: 'c1', accountId: 'a1', type: 'ats-a', config: {} }),
    type,
    options,
  });

  it('has a sink for every registered ATS whose capabilities declare documents', () => {
    expect(sut.missing()).toEqual([]);
  });

  it("makes the connector's ATS's sink, ATS-B's with the connector's Smart CV option", () => {
    expect(sut.for(connector('ats-a'), 'm1')).toBeInstanceOf(AtsADocumentSink);
    const atsB = sut.for(connector('ats-b', { sendSmartCv: true }));
    expect(atsB).toBeInstanceOf(AtsBDocumentSink);
    expect(
      atsB.plan({ kind: 'smart-cv', fileName: 'cv.pdf', contentType: 'application/pdf' } as never),
    ).toEqual({
      action: 'upload',
    });
    expect(clients.for).toHaveBeenCalledWith(expect.objectContaining({ id: 'c1', type: 'ats-a' }), {
      priority: 'push',
      maxWaitMs: 5,
      timeoutMs: 1_000,
      waiter: { id: 'm1', kind: 'message' },
    });
  });

  it('names a registered ATS that declares documents but whose adapter has no documentSink (the check above can fail)', () => {
    const withDocuments: AtsAdapter = { ...fakeAtsAdapter, type: 'fake-docs', capabilities: ['documents'] };
    const withThem = sinksOf(withDocuments);
    expect(withThem.missing()).toEqual(['fake-docs']);
    expect(() => withThem.for(connector('fake-docs'))).toThrow(MissingAtsPartError);
  });
});
