import { tokenTagOf } from '../oauth.store';
import { isTenantName, tenantOfUser, tenantSeed } from './ats-b-tenants';

describe('ATS-B tenant names', () => {
  it('reads the tenant of a login name, and only a valid one', () => {
    expect(tenantOfUser('recruiter@acme')).toBe('acme');
    expect(tenantOfUser('jane.doe@b-12')).toBe('b-12');
    expect(tenantOfUser('recruiter')).toBeUndefined();
    expect(tenantOfUser('recruiter@Acme')).toBeUndefined();
    expect(tenantOfUser('@acme')).toBeUndefined();
    expect(tenantOfUser(undefined)).toBeUndefined();
  });

  it("reads the tenant a code or token was issued by; the default tenant's carry none", () => {
    expect(tokenTagOf('code-acme.Zm9v_-bar')).toBe('acme');
    expect(tokenTagOf('rt-b-12.abc-def')).toBe('b-12');
    expect(tokenTagOf('at-abc-def_ghi')).toBeUndefined();
    expect(tokenTagOf('at-.abc')).toBeUndefined();
  });

  it('takes the same names as ATS-A tenants and a stable seed per name', () => {
    expect(['acme', 'b-0', 'x'.repeat(64)].every(isTenantName)).toBe(true);
    expect(['', 'A', '-a', 'a-', 'a.b'].some(isTenantName)).toBe(false);
    expect(tenantSeed('b-1')).toBe(tenantSeed('b-1'));
    expect(tenantSeed('b-1')).not.toBe(tenantSeed('b-2'));
  });
});
