import { isTenantName, splitTenantPath, tenantSeed } from './tenant-name';

describe('tenant names', () => {
  it('takes lower-case letters, digits and inner dashes, at most 64', () => {
    expect(['acme', 'c-0042', 'a', 'x'.repeat(64)].filter(isTenantName)).toHaveLength(4);
    expect(['', 'Acme', '-a', 'a-', 'a_b', 'a/b', '..', 'x'.repeat(65)].filter(isTenantName)).toEqual([]);
  });

  it("splits a tenant's path into its name and the path its app answers", () => {
    expect(splitTenantPath('/t/acme/api/token?x=1')).toEqual({ name: 'acme', rest: '/api/token?x=1' });
    expect(splitTenantPath('/t/acme/__sandbox')).toEqual({ name: 'acme', rest: '/__sandbox' });
    expect(splitTenantPath('/t/acme')).toBeUndefined();
    expect(splitTenantPath('/api/token')).toBeUndefined();
  });

  it('derives a stable, positive seed per name, different between names', () => {
    expect(tenantSeed('acme')).toBe(tenantSeed('acme'));
    const seeds = new Set(Array.from({ length: 1000 }, (_, i) => tenantSeed(`c-${i}`)));
    expect(seeds.size).toBe(1000);
    for (const seed of seeds) expect(Number.isInteger(seed) && seed > 0 && seed < 2 ** 31).toBe(true);
  });
});
