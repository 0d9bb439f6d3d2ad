import { randomBytes } from 'node:crypto';
import { loadConfig } from '@connector/service-kit';
import { AuthGatewayConfig } from '../auth-gateway.config';
import { SecretBox } from './secret-box';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const env = (...keys: Array<[string, Buffer]>) =>
  keys.map(([id, key]) => `${id}:${key.toString('base64')}`).join(',');

describe(SecretBox.name, () => {
  const sut = SecretBox.fromEnv(env(['k1', keyA]));

  it('seals and opens a secret; the sealed form does not contain it', () => {
    const sealed = sut.seal('s3cret-client-secret', 'connector-1');
    expect(JSON.stringify(sealed)).not.toContain('s3cret');
    expect(sealed.kid).toBe('k1');
    expect(sut.open(sealed, 'connector-1')).toBe('s3cret-client-secret');
  });

  it('uses a fresh IV each time', () => {
    expect(sut.seal('same', 'c').data).not.toBe(sut.seal('same', 'c').data);
  });

  it('refuses a secret moved to another connector or tampered with', () => {
    const sealed = sut.seal('token', 'connector-1');
    expect(() => sut.open(sealed, 'connector-2')).toThrow(/does not open/);
    const tampered = { ...sealed, data: Buffer.from('x' + sealed.data).toString('base64') };
    expect(() => sut.open(tampered, 'connector-1')).toThrow(/does not open/);
  });

  it('rotates: a new first key seals, the old one still opens, old secrets are stale', () => {
    const old = sut.seal('refresh-token', 'c');
    const rotated = SecretBox.fromEnv(env(['k2', keyB], ['k1', keyA]));
    expect(rotated.open(old, 'c')).toBe('refresh-token');
    expect(rotated.isStale(old)).toBe(true);
    expect(rotated.seal('x', 'c').kid).toBe('k2');
  });

  it('names a bad configuration without echoing the key', () => {
    expect(() => SecretBox.fromEnv('k1:c2hvcnQ=')).toThrow('encryption key "k1" must be 32 bytes, it is 5');
    expect(() => SecretBox.fromEnv('nokey')).toThrow(/<keyId>:<base64 key>/);
    expect(() => sut.open({ ...sut.seal('x', 'c'), kid: 'gone' }, 'c')).toThrow(
      'no encryption key "gone" is configured',
    );
  });

  it('refuses a duplicate key id at boot, naming the variable and never a key', () => {
    expect(() => SecretBox.fromEnv(env(['k1', keyA], ['k1', keyB]))).toThrow(
      'encryption key id "k1" appears more than once',
    );
    const value = env(['k1', keyA], ['k1', keyB]);
    let message = '';
    try {
      loadConfig(AuthGatewayConfig, { NODE_ENV: 'test', ENCRYPTION_KEYS: value });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/ENCRYPTION_KEYS: encryption key id "k1" appears more than once/);
    expect(message).not.toContain(keyB.toString('base64'));
    expect(
      loadConfig(AuthGatewayConfig, { NODE_ENV: 'test', ENCRYPTION_KEYS: env(['k2', keyB], ['k1', keyA]) })
        .ENCRYPTION_KEYS,
    ).toBe(env(['k2', keyB], ['k1', keyA]));
  });

  it('refuses a shortened GCM tag, even one that would authenticate', () => {
    const sealed = sut.seal('token', 'connector-1');
    // Node accepts the first 4..15 bytes of a valid tag unless the length is pinned.
    const short = { ...sealed, tag: Buffer.from(sealed.tag, 'base64').subarray(0, 4).toString('base64') };
    expect(() => sut.open(short, 'connector-1')).toThrow(/4-byte tag, not 16/);
  });

  it('re-seals a secret under the newest key so the old key can be retired', () => {
    const old = sut.seal('refresh-token', 'c');
    const rotated = SecretBox.fromEnv(env(['k2', keyB], ['k1', keyA]));
    const resealed = rotated.reseal(old, 'c');
    expect(resealed.kid).toBe('k2');
    expect(SecretBox.fromEnv(env(['k2', keyB])).open(resealed, 'c')).toBe('refresh-token');
    expect(rotated.reseal(resealed, 'c')).toBe(resealed);
  });
});
