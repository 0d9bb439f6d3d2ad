import {
  checkAtsUrlPolicy,
  classifyAddress,
  UrlPolicyError,
  type AddressClass,
  type HostResolver,
} from './url-policy';

describe(classifyAddress.name, () => {
  it.each<[string, AddressClass]>([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['100.128.0.1', 'public'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['2002:c0a8:0101::1', 'private'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['fc00::1', 'unique_local'],
    ['fd00:ec2::254', 'unique_local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['not-an-ip', 'reserved'],
    ['1:2:3:4:5:6:7:8:9', 'reserved'],
  ])('%s → %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe(checkAtsUrlPolicy.name, () => {
  const strict = { allowInsecureHttp: false, allowPrivateNetworks: false };
  const resolveTo =
    (...addresses: string[]): HostResolver =>
    async () =>
      addresses.map((address) => ({ address }));

  it('accepts https to a public address', async () => {
    await expect(
      checkAtsUrlPolicy('https://acme.eploy.net', strict, resolveTo('93.184.216.34')),
    ).resolves.toBeUndefined();
  });

  it('refuses http unless allowed', async () => {
    await expect(
      checkAtsUrlPolicy('http://acme.eploy.net', strict, resolveTo('93.184.216.34')),
    ).rejects.toMatchObject({
      code: 'insecure_scheme',
    });
    await expect(
      checkAtsUrlPolicy(
        'http://acme.eploy.net',
        { ...strict, allowInsecureHttp: true },
        resolveTo('93.184.216.34'),
      ),
    ).resolves.toBeUndefined();
  });

  it('refuses other schemes and non-URLs', async () => {
    await expect(checkAtsUrlPolicy('ftp://acme', strict)).rejects.toMatchObject({ code: 'invalid_url' });
    await expect(checkAtsUrlPolicy('acme', strict)).rejects.toBeInstanceOf(UrlPolicyError);
  });

  it('refuses credentials in the address', async () => {
    await expect(
      checkAtsUrlPolicy('https://u:p@acme.eploy.net', strict, resolveTo('93.184.216.34')),
    ).rejects.toMatchObject({ code: 'credentials_in_url' });
  });

  it('refuses a host when any of its addresses is private, with a message a person can act on', async () => {
    const check = checkAtsUrlPolicy('https://acme.eploy.net', strict, resolveTo('93.184.216.34', '10.0.0.5'));
    await expect(check).rejects.toMatchObject({ code: 'blocked_address' });
    await expect(check).rejects.toThrow(/points to 10\.0\.0\.5, a private address .* use the public address/);
  });

  it('checks IP literals without DNS, including the metadata address and IPv6 loopback', async () => {
    const noDns: HostResolver = async () => {
      throw new Error('no DNS expected');
    };
    await expect(checkAtsUrlPolicy('https://169.254.169.254/latest', strict, noDns)).rejects.toThrow(
      /metadata/,
    );
    await expect(checkAtsUrlPolicy('https://[::1]:8443', strict, noDns)).rejects.toThrow(/loopback/);
    await expect(checkAtsUrlPolicy('https://[::ffff:127.0.0.1]', strict, noDns)).rejects.toThrow(/loopback/);
    // WHATWG URL turns decimal/hex hosts into dotted quads: 2130706433 is 127.0.0.1.
    await expect(checkAtsUrlPolicy('https://2130706433', strict, noDns)).rejects.toThrow(/loopback/);
  });

  it('allows private addresses when configured (sandboxes)', async () => {
    await expect(
      checkAtsUrlPolicy('http://127.0.0.1:4010', { allowInsecureHttp: true, allowPrivateNetworks: true }),
    ).resolves.toBeUndefined();
  });

  it('says when the host does not resolve', async () => {
    const failing: HostResolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await expect(checkAtsUrlPolicy('https://nope.invalid', strict, failing)).rejects.toMatchObject({
      code: 'unresolvable',
    });
  });

  it('resolves localhost through DNS and refuses it', async () => {
    await expect(checkAtsUrlPolicy('https://localhost', strict)).rejects.toMatchObject({
      code: 'blocked_address',
    });
  });
});
