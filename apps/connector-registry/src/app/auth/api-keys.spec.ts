import { createHmac } from 'node:crypto';
import type { ExecutionContext } from '@nestjs/common';
import { ConfigError, loadConfig } from '@connector/service-kit';
import { RegistryErrorCode } from '../common/registry.exception';
import { ConnectorRegistryConfig } from '../connector-registry.config';
import { ApiKeyGuard, type AuthenticatedRequest } from './api-key.guard';
import { ApiKeyService } from './api-key.service';
import { DEFAULT_FAILED_ATTEMPTS_POLICY, type FailedKeyAttempts } from './failed-key-attempts';
import { adminIdOf, identify, parseApiKeys, sha256 } from './api-keys';

const strong = 'Qx7vN2pLm9RkT4wZc8Hj3Ys6Bd1Fg5Ua';

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

  it('in production refuses the demo key and keys shorter than 32 random characters', () => {
    expect(() => parseApiKeys('acct_demo:demo-admin-key', { strict: true })).toThrow(
      /demo key, refused in production/,
    );
    expect(() => parseApiKeys('acct_a:short-key', { strict: true })).toThrow(
      /entry 1 is too weak: .*at least 32/,
    );
    expect(() => parseApiKeys(`acct_a:${'ab'.repeat(20)}`, { strict: true })).toThrow(/entry 1 is too weak/);
    expect(parseApiKeys(`acct_a:${strong}`, { strict: true })).toHaveLength(1);
    // Local and test mode keep the short demo key working.
    expect(parseApiKeys('acct_demo:demo-admin-key')).toHaveLength(1);
  });
});

describe(identify.name, () => {
  const entries = parseApiKeys('acct_a:key-a,acct_b:key-b');

  it('finds the account of a known key and names the admin by an HMAC of the key, not a bare hash', () => {
    expect(identify(entries, 'key-b', 'secret-1')).toEqual({
      accountId: 'acct_b',
      adminId: adminIdOf('key-b', 'secret-1'),
    });
    expect(adminIdOf('key-b', 'secret-1')).toMatch(/^[0-9a-f]{32}$/);
    expect(adminIdOf('key-b', 'secret-1')).toBe(
      createHmac('sha256', 'secret-1').update('key-b').digest('hex').slice(0, 32),
    );
    // Whoever reads an admin id cannot confirm a guessed key without the secret.
    expect(sha256('key-b').toString('hex')).not.toContain(adminIdOf('key-b', 'secret-1').slice(0, 16));
    expect(adminIdOf('key-b', 'secret-2')).not.toBe(adminIdOf('key-b', 'secret-1'));
  });

  it('knows nothing of a wrong key', () => {
    expect(identify(entries, 'key-c', 's')).toBeUndefined();
    expect(identify(entries, '', 's')).toBeUndefined();
  });
});

describe(ConnectorRegistryConfig.name, () => {
  it('requires ADMIN_API_KEYS, naming it but never echoing its value', () => {
    expect(() => loadConfig(ConnectorRegistryConfig, { NODE_ENV: 'test' })).toThrow(ConfigError);
    expect(() => loadConfig(ConnectorRegistryConfig, { NODE_ENV: 'test' })).toThrow(/ADMIN_API_KEYS must be/);
    let message = '';
    try {
      loadConfig(ConnectorRegistryConfig, {
        NODE_ENV: 'test',
        ADMIN_API_KEYS: 'acct:secret-1,acct:secret-1',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/ADMIN_API_KEYS .* repeats a key/);
    expect(message).not.toContain('secret-1');
  });

  it('in production refuses the demo key, and a missing or short ADMIN_ID_SECRET', () => {
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db/x',
      RABBITMQ_URL: 'amqps://mq',
      RABBITMQ_USERS:
        'connector-registry:cr,auth-gateway:ag,vacancy-sync:vs,candidate-sync:cs,document-service:ds',
      REQUEST_SEAL_KEYS: `k1:${Buffer.alloc(32, 3).toString('base64')}`,
    };
    const secret = strong.split('').reverse().join('');
    expect(() =>
      loadConfig(ConnectorRegistryConfig, {
        ...production,
        ADMIN_API_KEYS: 'acct:demo-admin-key',
        ADMIN_ID_SECRET: secret,
      }),
    ).toThrow(/ADMIN_API_KEYS .*demo key/);
    expect(() =>
      loadConfig(ConnectorRegistryConfig, {
        ...production,
        ADMIN_API_KEYS: `acct:${strong}`,
      }),
    ).toThrow(/ADMIN_ID_SECRET is required/);
    expect(() =>
      loadConfig(ConnectorRegistryConfig, {
        ...production,
        ADMIN_API_KEYS: `acct:${strong}`,
        ADMIN_ID_SECRET: 'short',
      }),
    ).toThrow(/ADMIN_ID_SECRET must be at least 32/);
    expect(
      loadConfig(ConnectorRegistryConfig, {
        ...production,
        ADMIN_API_KEYS: `acct:${strong}`,
        ADMIN_ID_SECRET: secret,
      }).ADMIN_API_KEYS,
    ).toBe(`acct:${strong}`);
    // A demo in production mode (docker compose) opts in explicitly.
    expect(
      loadConfig(ConnectorRegistryConfig, {
        ...production,
        ADMIN_API_KEYS: 'acct:demo-admin-key',
        ADMIN_ID_SECRET: secret,
        ADMIN_ALLOW_WEAK_KEYS: 'true',
      }).ADMIN_ALLOW_WEAK_KEYS,
    ).toBe(true);
  });

  it('takes valid keys and defaults the rest', () => {
    const config = loadConfig(ConnectorRegistryConfig, { NODE_ENV: 'test', ADMIN_API_KEYS: 'acct_a:key-a' });
    expect(config).toMatchObject({ ADMIN_PAGE_PATH: '/admin', AUTH_GATEWAY_TIMEOUT_MS: 12_000 });
  });
});

/** The Postgres counter's behaviour in memory: one window per address, never ending within a test. */
function countingAttempts(): FailedKeyAttempts {
  const failures = new Map<string, number>();
  return {
    policy: DEFAULT_FAILED_ATTEMPTS_POLICY,
    recordFailure: async (address: string) => {
      failures.set(address, (failures.get(address) ?? 0) + 1);
      return { failures: failures.get(address)!, remainingMs: 42_000 };
    },
  } as unknown as FailedKeyAttempts;
}

describe(ApiKeyGuard.name, () => {
  let sut: ApiKeyGuard;
  beforeEach(() => {
    sut = new ApiKeyGuard(
      new ApiKeyService({
        ADMIN_API_KEYS: 'acct_a:key-a',
        NODE_ENV: 'test',
        ADMIN_ID_SECRET: 'id-secret',
        ADMIN_ALLOW_WEAK_KEYS: false,
      }),
      countingAttempts(),
    );
  });
  const contextWith = (request: Partial<AuthenticatedRequest>) =>
    ({ switchToHttp: () => ({ getRequest: () => request }) }) as unknown as ExecutionContext;

  it('puts the identity on the request for a right key', async () => {
    const request = { headers: { authorization: 'Bearer key-a' } } as AuthenticatedRequest;
    expect(await sut.canActivate(contextWith(request))).toBe(true);
    expect(request.admin).toEqual({ accountId: 'acct_a', adminId: adminIdOf('key-a', 'id-secret') });
  });

  it.each([undefined, 'Bearer key-b', 'Basic key-a', 'Bearer', 'key-a'])(
    'answers 401 for %j',
    async (header) => {
      const request = { headers: { authorization: header } } as AuthenticatedRequest;
      await expect(sut.canActivate(contextWith(request))).rejects.toMatchObject({
        code: RegistryErrorCode.Unauthorized,
      });
    },
  );

  it('answers 429 to wrong keys after 10 from one address, and still lets a right key in from there', async () => {
    const from = (ip: string, authorization: string) =>
      ({ ip, headers: { authorization }, res: { setHeader: jest.fn() } }) as unknown as AuthenticatedRequest;
    for (let i = 0; i < 10; i++) {
      await expect(sut.canActivate(contextWith(from('10.0.0.1', `Bearer guess-${i}`)))).rejects.toMatchObject(
        {
          code: RegistryErrorCode.Unauthorized,
        },
      );
    }
    const limited = from('10.0.0.1', 'Bearer guess-10');
    await expect(sut.canActivate(contextWith(limited))).rejects.toMatchObject({
      code: RegistryErrorCode.TooManyRequests,
      details: { retryAfterSeconds: 42 },
    });
    expect(limited.res?.setHeader).toHaveBeenCalledWith('Retry-After', '42');
    // Everyone behind one proxy shares an address: the admins with their right key are not locked out.
    expect(await sut.canActivate(contextWith(from('10.0.0.1', 'Bearer key-a')))).toBe(true);
    await expect(sut.canActivate(contextWith(from('10.0.0.2', 'Bearer guess-0')))).rejects.toMatchObject({
      code: RegistryErrorCode.Unauthorized,
    });
  });
});
