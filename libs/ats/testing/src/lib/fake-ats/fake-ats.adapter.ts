import type { AtsAdapter, AtsClientRequest } from '@connector/ats-core';
import type { AtsAccess } from '@connector/contracts';

/**
 * A throwaway third ATS for tests (docs/adding-an-ats.md): its own folder, two capabilities, in a registry of
 * the test's own (`new AtsRegistry([...ATS_ADAPTERS, fakeAtsAdapter])`), never in the product's.
 */
export const FAKE_ATS = 'fake-ats';

/** The fake ATS's client: it calls nothing, it hands out the key each call would send. */
class FakeAtsClient {
  constructor(private readonly request: AtsClientRequest) {}

  get connectorId(): string {
    return this.request.connector.id;
  }

  /** The key a call would send; `rejected`: the one the fake ATS refused, for a new one. */
  async callKey(rejected?: string): Promise<string> {
    return fakeAtsAdapter.callTokenOf(await this.request.access(rejected));
  }
}

export const fakeAtsAdapter: AtsAdapter = {
  type: FAKE_ATS,
  label: 'Fake ATS',
  capabilities: ['vacancies', 'candidates'],
  mapping: {
    atsType: FAKE_ATS,
    sourcePaths: new Set(['ref', 'headline', 'city', 'body', 'needs', 'state']),
    defaults: {
      fields: {
        title: { from: 'headline' },
        location: { from: 'city' },
        description: { from: 'body' },
        requirements: { from: 'needs' },
        status: { from: 'state' },
      },
    },
  },
  accessOf: (access: AtsAccess) => {
    if (access.type !== FAKE_ATS || typeof access['apiKey'] !== 'string')
      throw new Error('not a fake-ats access');
    return access;
  },
  callTokenOf: (access: AtsAccess) => fakeAtsAdapter.accessOf(access)['apiKey'] as string,
  budget: (connector) => ({
    kind: 'token-bucket',
    key: `${FAKE_ATS}:${connector.id}`,
    bucket: { capacity: 10, refillPerSecond: 1, reserve: 0 },
  }),
  makeClients: () => (request) => new FakeAtsClient(request),
};
