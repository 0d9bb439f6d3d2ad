import { validateJobMapping } from '@connector/job-mapping';
import { atsRegistry, defaultJobMapping } from '@connector/ats-registry';
import { fingerprintOf } from '@connector/ats-client-factory';
import { credentialFingerprint } from '@connector/contracts';
import { FAKE_ATS, fakeAtsAdapter } from './fake-ats.adapter';

describe('a third ATS, registered from its own folder', () => {
  beforeAll(() => atsRegistry.register(fakeAtsAdapter));

  it('is known to the registry with its capabilities, and nothing it did not declare', () => {
    expect(atsRegistry.types()).toEqual(['ats-a', 'ats-b', FAKE_ATS]);
    expect(atsRegistry.get(FAKE_ATS)).toBe(fakeAtsAdapter);
    expect(atsRegistry.supports(FAKE_ATS, 'vacancies')).toBe(true);
    expect(atsRegistry.supports(FAKE_ATS, 'candidates')).toBe(true);
    expect(atsRegistry.supports(FAKE_ATS, 'applications')).toBe(false);
    expect(atsRegistry.typesWith('candidates')).toContain(FAKE_ATS);
  });

  it('gives a new connector its default mapping, which the mapping validation accepts', () => {
    expect(atsRegistry.get(FAKE_ATS).mapping.sourcePaths).toContain('headline');
    expect(validateJobMapping(atsRegistry.get(FAKE_ATS).mapping, defaultJobMapping(FAKE_ATS))).toEqual([]);
    expect(validateJobMapping(atsRegistry.get(FAKE_ATS).mapping, defaultJobMapping('ats-a'))).toContain(
      'fields.title.from: unknown source path "Title" for fake-ats',
    );
  });

  it('names the token of its access for the workers (what they report when the ATS refuses it)', () => {
    const access = { type: FAKE_ATS, expiresAt: '2030-01-01T00:00:00Z', apiKey: 'key-1' };
    expect(fingerprintOf(access)).toBe(credentialFingerprint('key-1'));
  });

  it('refuses a second adapter under a used name', () => {
    expect(() => atsRegistry.register({ ...fakeAtsAdapter })).toThrow(/registered twice/);
  });
});
