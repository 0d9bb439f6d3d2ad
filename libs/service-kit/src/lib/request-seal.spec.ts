import { randomBytes, randomUUID } from 'node:crypto';
import { RequestSeal, type RequestSealScope } from './request-seal';

const keyOf = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const k1 = keyOf('k1');
const k2 = keyOf('k2');

describe(RequestSeal.name, () => {
  const secret = `ats-a-secret-${randomBytes(6).toString('hex')}`;
  const scope: RequestSealScope = {
    type: 'auth.credentials.save',
    accountId: 'acct_a',
    connectorId: 'c1',
    requestId: randomUUID(),
  };

  it('seals a secret for its request: the sealed form holds none of it, and it opens there', () => {
    const sut = RequestSeal.fromEnv(k1);
    const sealed = sut.seal(secret, scope);
    const text = JSON.stringify(sealed);
    for (const encoding of ['utf8', 'base64', 'hex'] as const) {
      expect(text).not.toContain(Buffer.from(secret).toString(encoding));
    }
    expect(sealed.kid).toBe('k1');
    expect(sut.open(sealed, scope)).toBe(secret);
  });

  it('does not open in another request: another connector, account, type or request id', () => {
    const sut = RequestSeal.fromEnv(k1);
    const sealed = sut.seal(secret, scope);
    for (const other of [
      { ...scope, connectorId: 'c2' },
      { ...scope, connectorId: undefined },
      { ...scope, accountId: 'acct_b' },
      { ...scope, type: 'auth.connection.test' },
      { ...scope, requestId: randomUUID() },
    ]) {
      expect(() => sut.open(sealed, other)).toThrow('key "k1" does not open it');
    }
    // A test's secret (no connector) cannot be saved onto a connector either.
    const tested = sut.seal(secret, { ...scope, type: 'auth.connection.test', connectorId: undefined });
    expect(() => sut.open(tested, { ...scope, type: 'auth.connection.test' })).toThrow(/does not open/);
  });

  it('rotates as ENCRYPTION_KEYS does: the first key seals, every key opens, a key not held is named', () => {
    const registryBefore = RequestSeal.fromEnv(k1);
    const gatewayRotated = RequestSeal.fromEnv(`${k2},${k1}`);
    expect(gatewayRotated.open(registryBefore.seal(secret, scope), scope)).toBe(secret);
    const registryRotated = RequestSeal.fromEnv(`${k2},${k1}`);
    const sealed = registryRotated.seal(secret, scope);
    expect(sealed.kid).toBe('k2');
    expect(gatewayRotated.open(sealed, scope)).toBe(secret);
    expect(RequestSeal.fromEnv(k2).open(sealed, scope)).toBe(secret);
    // The old key retired at the gateway before the registry stopped sealing with it: refused, by key id.
    expect(() => RequestSeal.fromEnv(k2).open(registryBefore.seal(secret, scope), scope)).toThrow(
      'no encryption key "k1" is configured',
    );
  });
});
