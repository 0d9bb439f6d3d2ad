import { parseTrustProxy, TrustProxyFormatError } from './trust-proxy';

describe(parseTrustProxy.name, () => {
  it('is off by default', () => {
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
  });

  it('takes a hop count, names, addresses and subnets as Express does', () => {
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('loopback')).toEqual(['loopback']);
    expect(parseTrustProxy('loopback, 10.0.0.0/8, 192.168.1.7, fd00::/8, uniquelocal')).toEqual([
      'loopback',
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
      'uniquelocal',
    ]);
  });

  it('refuses what is no proxy, and "true" (every client could name its own address)', () => {
    for (const value of ['true', 'proxy.example.com', '10.0.0.0/33', '10.0.0.1,', 'loopback;', '101']) {
      expect(() => parseTrustProxy(value)).toThrow(TrustProxyFormatError);
    }
  });
});
