import type { AtsAdapter } from '@connector/ats-core';
import type { AtsAccess } from '@connector/contracts';

/**
 * A throwaway third ATS for tests (docs/adding-an-ats.md): its own folder, two capabilities, registered by the
 * test that needs it (`atsRegistry.register(fakeAtsAdapter)`), never by the product.
 */
export const FAKE_ATS = 'fake-ats';

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
};
