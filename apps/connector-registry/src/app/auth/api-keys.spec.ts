import type { ExecutionContext } from '@nestjs/common';
import { ConfigError, loadConfig } from '@connector/service-kit';
import { RegistryErrorCode, RegistryException } from '../common/registry.exception';
import { ConnectorRegistryConfig } from '../connector-registry.config';
import { ApiKeyGuard, type AuthenticatedRequest } from './api-key.guard';
import { ApiKeyService } from './api-key.service';
import { adminIdOf, identify, parseApiKeys, sha256 } from './api-keys';

describe(parseApiKeys.name, () => {
  it('reads <accountId>:<key> pairs, keeping only digests', () => {
    const entries = parseApiKeys(' acct_a:key-a , acct_b:k:with:colons ');
    expect(entries).toEqual([
      { accountId: 'acct_a', digest: sha256('key-a') },
      { accountId: 'acct_b', digest: sha256('k:with:colons') },
    ]);
  });

  it.each([
    ['', /at least one/],
    ['acct_a', /entry 1 is not/],
    ['acct_a:', /entry 1 is not/],
    [':key', /entry 1 is not/],
    ['acct_a:k1,acct_b:k1', /entry 2 repeats a key/],
  ])('refuses %j', (value, message) => {
    expect(() => parseApiKeys(value)).toThrow(message);
  });
});

describe(identify.name, () => {
  const entries = parseApiKeys('acct_a:key-a,acct_b:key-b');

  it('finds the account of a known key and names the admin by a hash prefix', () => {
    expect(identify(entries, 'key-b')).toEqual({ accountId: 'acct_b', adminId: adminIdOf('key-b') });
    expect(adminIdOf('key-b')).toMatch(/^[0-9a-f]{16}$/);
  });

  it('knows nothing of a wrong key', () => {
    expect(identify(entries, 'key-c')).toBeUndefined();
    expect(identify(entries, '')).toBeUndefined();
  });
});

describe(ConnectorRegistryConfig.name, () => {
  it('requires ADMIN_API_KEYS, naming it but never echoing its value', () => {
    expect(() => loadConfig(ConnectorRegistryConfig, {})).toThrow(ConfigError);
    expect(() => loadConfig(ConnectorRegistryConfig, {})).toThrow(/ADMIN_API_KEYS must be/);
    let message = '';
    try {
      loadConfig(ConnectorRegistryConfig, { ADMIN_API_KEYS: 'acct:secret-1,acct:secret-1' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/ADMIN_API_KEYS .* repeats a key/);
    expect(message).not.toContain('secret-1');
  });

  it('takes valid keys and defaults the rest', () => {
    const config = loadConfig(ConnectorRegistryConfig, { ADMIN_API_KEYS: 'acct_a:key-a' });
    expect(config).toMatchObject({ ADMIN_PAGE_PATH: '/admin', AUTH_GATEWAY_TIMEOUT_MS: 12_000 });
  });
});

describe(ApiKeyGuard.name, () => {
  const sut = new ApiKeyGuard(new ApiKeyService({ ADMIN_API_KEYS: 'acct_a:key-a' }));
  const contextWith = (request: Partial<AuthenticatedRequest>) =>
    ({ switchToHttp: () => ({ getRequest: () => request }) }) as unknown as ExecutionContext;

  it('puts the identity on the request for a right key', () => {
    const request = { headers: { authorization: 'Bearer key-a' } } as AuthenticatedRequest;
    expect(sut.canActivate(contextWith(request))).toBe(true);
    expect(request.admin).toEqual({ accountId: 'acct_a', adminId: adminIdOf('key-a') });
  });

  it.each([undefined, 'Bearer key-b', 'Basic key-a', 'Bearer', 'key-a'])('answers 401 for %j', (header) => {
    const request = { headers: { authorization: header } } as AuthenticatedRequest;
    expect(() => sut.canActivate(contextWith(request))).toThrow(
      expect.objectContaining({ code: RegistryErrorCode.Unauthorized }) as RegistryException,
    );
  });
});
