import { randomBytes } from 'node:crypto';
import { SealingKeys, SealKeys, SealOpenError } from './sealing-keys';
import { loadConfig, requiredInProductionOf, ServiceConfig } from './service-config';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const env = (...keys: Array<[string, Buffer]>) =>
  keys.map(([id, key]) => `${id}:${key.toString('base64')}`).join(',');
const aad = Buffer.from('bound-to');

class KeysConfig extends ServiceConfig {
  @SealKeys() ENCRYPTION_KEYS = '';
  @SealKeys() REQUEST_SEAL_KEYS = `local:${Buffer.alloc(32, 1).toString('base64')}`;
}

describe(SealingKeys.name, () => {
  it('seals with the first key and opens with any, for the same associated data only', () => {
    const old = SealingKeys.fromEnv(env(['k1', keyA])).seal('s3cret', aad);
    const rotated = SealingKeys.fromEnv(env(['k2', keyB], ['k1', keyA]));
    expect(rotated.open(old, aad)).toBe('s3cret');
    expect(rotated.seal('x', aad).kid).toBe('k2');
    expect(() => rotated.open(old, Buffer.from('elsewhere'))).toThrow(SealOpenError);
    const short = { ...old, tag: Buffer.from(old.tag, 'base64').subarray(0, 4).toString('base64') };
    expect(() => rotated.open(short, aad)).toThrow('its tag has 4 bytes, not 16');
    expect(() => SealingKeys.fromEnv(env(['k2', keyB])).open(old, aad)).toThrow(
      'no encryption key "k1" is configured',
    );
  });

  it('checks every keys variable by the same rules, naming it and never a key, required in production', () => {
    const keys = env(['k1', keyA]);
    const problem = (given: Record<string, string>) => {
      try {
        loadConfig(KeysConfig, { NODE_ENV: 'test', ENCRYPTION_KEYS: keys, ...given });
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(problem({ REQUEST_SEAL_KEYS: 'k1:c2hvcnQ=' })).toMatch(
      /REQUEST_SEAL_KEYS must be "<keyId>:<base64 of 32 bytes>\[,…\]"/,
    );
    const twice = problem({ REQUEST_SEAL_KEYS: `${keys},${env(['k1', keyB])}` });
    expect(twice).toMatch(/REQUEST_SEAL_KEYS: encryption key id "k1" appears more than once/);
    expect(twice).not.toContain(keyB.toString('base64'));
    expect(problem({ ENCRYPTION_KEYS: `k1:${Buffer.alloc(31, 1).toString('base64')}AAAAAAAA` })).toMatch(
      /ENCRYPTION_KEYS: encryption key "k1" must be 32 bytes/,
    );
    expect(problem({ REQUEST_SEAL_KEYS: env(['k2', keyB], ['k1', keyA]) })).toBe('');
    expect(requiredInProductionOf(KeysConfig)).toEqual(
      expect.arrayContaining(['ENCRYPTION_KEYS', 'REQUEST_SEAL_KEYS']),
    );
  });
});
