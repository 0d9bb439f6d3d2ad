import { randomBytes } from 'node:crypto';
import { loadConfig } from '@connector/service-kit';
import { AuthGatewayConfig } from '../auth-gateway.config';
import { sealInFormat1 } from './format-1.testing';
import { credentialBinding, type SealBinding } from './seal-binding';
import { SealedSecretMismatchError, SecretBox } from './secret-box';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const env = (...keys: Array<[string, Buffer]>) =>
  keys.map(([id, key]) => `${id}:${key.toString('base64')}`).join(',');

/** A connector's secret, bound to its row. */
const bound = (connectorId: string, column: 'secret' | 'access' = 'secret'): SealBinding =>
  credentialBinding(
    { connectorId, atsType: 'ats-a', baseUrl: 'https://a.example', clientId: 'client-1' },
    column,
  );

describe(SecretBox.name, () => {
  const sut = SecretBox.fromEnv(env(['k1', keyA]));

  it('seals and opens a secret; the sealed form does not contain it', () => {
    const sealed = sut.seal('s3cret-client-secret', bound('connector-1'));
    expect(JSON.stringify(sealed)).not.toContain('s3cret');
    expect(sealed.kid).toBe('k1');
    expect(sut.open(sealed, bound('connector-1'))).toBe('s3cret-client-secret');
  });

  it('uses a fresh IV each time', () => {
    expect(sut.seal('same', bound('c')).data).not.toBe(sut.seal('same', bound('c')).data);
  });

  it('refuses a secret moved to another connector or tampered with', () => {
    const sealed = sut.seal('token', bound('connector-1'));
    expect(() => sut.open(sealed, bound('connector-2'))).toThrow(/does not open/);
    const tampered = { ...sealed, data: Buffer.from('x' + sealed.data).toString('base64') };
    expect(() => sut.open(tampered, bound('connector-1'))).toThrow(/does not open/);
  });

  it('rotates: a new first key seals, the old one still opens, old secrets are stale', () => {
    const old = sut.seal('refresh-token', bound('c'));
    const rotated = SecretBox.fromEnv(env(['k2', keyB], ['k1', keyA]));
    expect(rotated.open(old, bound('c'))).toBe('refresh-token');
    expect(rotated.isStale(old)).toBe(true);
    expect(rotated.seal('x', bound('c')).kid).toBe('k2');
  });

  it('names a bad configuration without echoing the key', () => {
    expect(() => SecretBox.fromEnv('k1:c2hvcnQ=')).toThrow('encryption key "k1" must be 32 bytes, it is 5');
    expect(() => SecretBox.fromEnv('nokey')).toThrow(/<keyId>:<base64 key>/);
    expect(() => sut.open({ ...sut.seal('x', bound('c')), kid: 'gone' }, bound('c'))).toThrow(
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
    const sealed = sut.seal('token', bound('connector-1'));
    // Node accepts the first 4..15 bytes of a valid tag unless the length is pinned.
    const short = { ...sealed, tag: Buffer.from(sealed.tag, 'base64').subarray(0, 4).toString('base64') };
    expect(() => sut.open(short, bound('connector-1'))).toThrow(/tag has 4 bytes, not 16/);
  });

  it('re-seals a secret under the newest key so the old key can be retired', () => {
    const old = sut.seal('refresh-token', bound('c'));
    const rotated = SecretBox.fromEnv(env(['k2', keyB], ['k1', keyA]));
    const resealed = rotated.reseal(old, bound('c'));
    expect(resealed.kid).toBe('k2');
    expect(SecretBox.fromEnv(env(['k2', keyB])).open(resealed, bound('c'))).toBe('refresh-token');
    expect(rotated.reseal(resealed, bound('c'))).toBe(resealed);
  });

  it('opens a secret only for the row values and the column it was sealed for', () => {
    const row = { connectorId: 'c1', atsType: 'ats-a', baseUrl: 'https://a.example', clientId: 'client-1' };
    const sealed = sut.seal('client-secret', credentialBinding(row, 'secret'));
    expect(sut.open(sealed, credentialBinding({ ...row }, 'secret'))).toBe('client-secret');
    for (const changed of [
      { ...row, baseUrl: 'https://attacker.example' },
      { ...row, clientId: 'client-2' },
      { ...row, atsType: 'ats-b' },
      { ...row, baseUrl: null },
    ]) {
      expect(() => sut.open(sealed, credentialBinding(changed, 'secret'))).toThrow(
        /the sealed secret of connector c1 does not open/,
      );
    }
    expect(() => sut.open(sealed, credentialBinding(row, 'access'))).toThrow(
      /the sealed access of connector c1 does not open/,
    );
    const verifier = sut.seal('pkce', { column: 'code_verifier', connectorId: 'c1', stateHash: 'h1' });
    expect(() => sut.open(verifier, { column: 'code_verifier', connectorId: 'c2', stateHash: 'h1' })).toThrow(
      SealedSecretMismatchError,
    );
  });

  it('opens the old format (the connector id alone) only through openLegacy, and never in open', () => {
    const binding = bound('c1');
    const legacy = sealInFormat1({ id: 'k1', key: keyA }, 'old-secret', 'c1');
    expect(() => sut.open(legacy, binding)).toThrow(/in format 1, not 2/);
    // A format-2 value relabelled as format 1 does not open either way.
    expect(() => sut.open({ ...sut.seal('x', binding), v: 1 }, binding)).toThrow(SealedSecretMismatchError);
    expect(() => sut.openLegacy({ ...sut.seal('x', binding), v: 1 }, binding)).toThrow(/does not open/);
    expect(sut.openLegacy(legacy, binding)).toBe('old-secret');
    expect(() => sut.openLegacy(legacy, bound('c2'))).toThrow(/does not open/);
  });

  it('says an unknown key is the configuration, and names no secret when a value does not open', () => {
    const sealed = sut.seal('s3cret-value', bound('c1'));
    let message = '';
    try {
      sut.open(sealed, bound('c2'));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/connector c2/);
    expect(message).not.toContain('s3cret');
    expect(() => sut.open({ ...sealed, kid: 'gone' }, bound('c1'))).not.toThrow(SealedSecretMismatchError);
  });
});
