import { OutboundGuard } from '@connector/ats-http';
import { AtsParts, AtsRegistry } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import { FAKE_ATS, fakeAtsAdapter } from '@connector/ats-testing';
import type { PostgresDailyQuota } from '@connector/rate-limiter';
import { credentialIssuers } from './credentials.module';

describe('credential issuers', () => {
  const guard = new OutboundGuard({ allowance: 'none' });
  afterAll(() => guard.close());
  // What the module hands each adapter, none of it called here: only the issuers' `atsType` is read.
  const deps = {
    guard,
    quota: {} as PostgresDailyQuota,
    logger: { warn: () => undefined },
    settingsOf: () => ({}),
  };

  it('are one for every registered ATS, each built by its adapter', () => {
    const issuers = new AtsParts('credential issuer', atsRegistry, credentialIssuers(deps, atsRegistry));
    expect(issuers.missing()).toEqual([]);
    for (const type of atsRegistry.types()) expect(issuers.get(type).atsType).toBe(type);
  });

  it('name a registered ATS whose adapter has no credential issuer (the check above can fail)', () => {
    const registry = new AtsRegistry(atsRegistry.all());
    registry.register(fakeAtsAdapter);
    const issuers = new AtsParts('credential issuer', registry, credentialIssuers(deps, registry));
    expect(issuers.missing()).toEqual([FAKE_ATS]);
  });
});
