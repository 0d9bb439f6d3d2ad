import { validateJobMapping } from '@connector/job-mapping';
import { AtsRegistry } from '@connector/ats-core';
import { ATS_ADAPTERS, defaultJobMapping } from '@connector/ats-registry';
import { fingerprintOf } from '@connector/ats-client-factory';
import { credentialFingerprint } from '@connector/contracts';
import { FAKE_ATS, fakeAtsAdapter } from './fake-ats.adapter';

describe('a third ATS, registered from its own folder', () => {
  // A registry of the test's own: the product's is frozen.
  const registry = new AtsRegistry([...ATS_ADAPTERS, fakeAtsAdapter]);

  it('is known to the registry with its capabilities, and nothing it did not declare', () => {
    expect(registry.types()).toEqual(['ats-a', 'ats-b', FAKE_ATS]);
    expect(registry.get(FAKE_ATS)).toBe(fakeAtsAdapter);
    expect(registry.supports(FAKE_ATS, 'vacancies')).toBe(true);
    expect(registry.supports(FAKE_ATS, 'candidates')).toBe(true);
    expect(registry.supports(FAKE_ATS, 'applications')).toBe(false);
    expect(registry.typesWith('candidates')).toContain(FAKE_ATS);
  });

  it('gives a new connector its default mapping, which the mapping validation accepts', () => {
    const vocabulary = registry.get(FAKE_ATS).mapping;
    expect(vocabulary.sourcePaths).toContain('headline');
    expect(validateJobMapping(vocabulary, defaultJobMapping(FAKE_ATS, registry))).toEqual([]);
    expect(validateJobMapping(vocabulary, defaultJobMapping('ats-a', registry))).toContain(
      'fields.title.from: unknown source path "Title" for fake-ats',
    );
  });

  it('names the token of its access for the workers (what they report when the ATS refuses it)', () => {
    const access = { type: FAKE_ATS, expiresAt: '2030-01-01T00:00:00Z', apiKey: 'key-1' };
    expect(fingerprintOf(registry, access)).toBe(credentialFingerprint('key-1'));
  });

  it('refuses a second adapter under a used name', () => {
    expect(() => registry.register({ ...fakeAtsAdapter })).toThrow(/registered twice/);
  });
});
