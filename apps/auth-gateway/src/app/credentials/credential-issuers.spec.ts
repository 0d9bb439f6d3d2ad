import { AtsParts } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import { FAKE_ATS, fakeAtsAdapter } from '@connector/ats-testing';
import type { CredentialIssuer } from './credential-issuer';
import { CREDENTIAL_ISSUER_CLASSES } from './credentials.module';

describe('credential issuers', () => {
  // The module's issuers, built without their dependencies: only their `atsType` is read here.
  const issuers = new AtsParts(
    'credential issuer',
    atsRegistry,
    CREDENTIAL_ISSUER_CLASSES.map((Issuer) => new (Issuer as new (...deps: unknown[]) => CredentialIssuer)()),
  );

  it('are one for every registered ATS', () => {
    expect(issuers.missing()).toEqual([]);
    for (const type of atsRegistry.types()) expect(issuers.get(type).atsType).toBe(type);
  });

  it('name a registered ATS without an issuer (the check above can fail)', () => {
    atsRegistry.register(fakeAtsAdapter);
    expect(issuers.missing()).toEqual([FAKE_ATS]);
  });
});
