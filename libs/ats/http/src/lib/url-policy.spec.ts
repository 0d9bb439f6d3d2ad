import {
  checkAtsUrlPolicy,
  checkUrlShape,
  classifyAddress,
  refusedAddressClass,
  UrlPolicyError,
  type AddressAllowance,
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
    ['192.88.99.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['100.64.0.0', 'cgnat'],
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
    ['64:ff9b::8.8.8.8', 'public'],
    // IPv4-translated (SIIT), the local-use NAT64 prefix and Teredo: refused whatever they embed.
    ['::ffff:0:127.0.0.1', 'translated'],
    ['::ffff:0:8.8.8.8', 'translated'],
    ['::ffff:0:7f00:1', 'translated'],
    ['64:ff9b:1::8.8.8.8', 'translated'],
    ['64:ff9b:1:ffff::7f00:1', 'translated'],
    ['2001::1', 'tunnel'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'tunnel'],
    ['2001:0:ffff::1', 'tunnel'],
    ['2001:1::1', 'public'],
    ['2002:c0a8:0101::1', 'private'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['fc00::1', 'unique_local'],
    ['fdff:ffff::1', 'unique_local'],
    ['fe80::abcd', 'link_local'],
    ['febf::1', 'link_local'],
    ['fd00:ec2::254', 'metadata'],
    ['fd00:ec2::23', 'metadata'],
    ['fd00:ec2::1', 'unique_local'],
    ['169.254.170.2', 'metadata'],
    ['169.254.170.23', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['ff02::1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['::ffff:192.168.0.1', 'private'],
    ['::ffff:100.64.0.1', 'cgnat'],
    ['2001:db8::1', 'reserved'],
    ['not-an-ip', 'reserved'],
    ['1:2:3:4:5:6:7:8:9', 'reserved'],
  ])('%s → %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe(refusedAddressClass.name, () => {
  it.each<[string, AddressAllowance, AddressClass | undefined]>([
    ['8.8.8.8', 'none', undefined],
    ['127.0.0.1', 'none', 'loopback'],
    ['127.0.0.1', 'loopback', undefined],
    ['::1', 'loopback', undefined],
    ['10.0.0.1', 'loopback', 'private'],
    ['10.0.0.1', 'private', undefined],
    ['172.20.0.5', 'private', undefined],
    ['100.64.0.1', 'private', undefined],
    ['fd12::1', 'private', undefined],
    // Never, whatever is allowed: the metadata service, "this host", multicast, translations and tunnels.
    ['169.254.169.254', 'private', 'metadata'],
    ['::ffff:169.254.169.254', 'private', 'metadata'],
    ['169.254.170.2', 'private', 'metadata'],
    ['fd00:ec2::254', 'private', 'metadata'],
    ['0.0.0.0', 'private', 'unspecified'],
    ['::', 'private', 'unspecified'],
    ['224.0.0.1', 'private', 'multicast'],
    ['::ffff:0:127.0.0.1', 'loopback', 'translated'],
    ['64:ff9b:1::a00:1', 'private', 'translated'],
    ['2001::7f00:1', 'private', 'tunnel'],
  ])('%s under %s → %s', (address, allowance, refused) => {
    expect(refusedAddressClass(address, allowance)).toBe(refused);
  });
});

describe(checkUrlShape.name, () => {
  it('refuses plain http unless an allowance is given, and IP literals by class without DNS', () => {
    expect(() => checkUrlShape('http://93.184.216.34', 'none')).toThrow(/must start with https/);
    expect(checkUrlShape('http://127.0.0.1:4010/x', 'loopback').port).toBe('4010');
    expect(() => checkUrlShape('https://[::ffff:0:127.0.0.1]', 'loopback')).toThrow(/translated/);
    expect(() => checkUrlShape('https://[2001::1]', 'none')).toThrow(/tunnel/);
    expect(() => checkUrlShape('https://[64:ff9b:1::1]', 'none')).toThrow(/translated/);
    expect(() => checkUrlShape('https://10.1.2.3', 'loopback')).toThrow(/a private address/);
  });
});

describe(checkAtsUrlPolicy.name, () => {
  const strict = 'none';
  const resolveTo =
    (...addresses: string[]): HostResolver =>
    async () =>
      addresses.map((address) => ({ address }));

  it('accepts https to a public address', async () => {
    await expect(
      checkAtsUrlPolicy('https://acme.eploy.net', strict, resolveTo('93.184.216.34')),
    ).resolves.toBeUndefined();
  });

  it('refuses http unless an allowance is given', async () => {
    await expect(
      checkAtsUrlPolicy('http://acme.eploy.net', strict, resolveTo('93.184.216.34')),
    ).rejects.toMatchObject({
      code: 'insecure_scheme',
    });
    await expect(
      checkAtsUrlPolicy('http://acme.eploy.net', 'private', resolveTo('93.184.216.34')),
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
    await expect(check).rejects.toThrow(
      /acme\.eploy\.net points to a private address .* use the public address/,
    );
    // What an internal name points to is not told: it would map our network for any tenant.
    await expect(check).rejects.not.toThrow(/10\.0\.0\.5/);
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

  it('allows loopback addresses and plain http when configured (sandboxes), but not other private ones', async () => {
    await expect(checkAtsUrlPolicy('http://127.0.0.1:4010', 'loopback')).resolves.toBeUndefined();
    await expect(checkAtsUrlPolicy('http://localhost:4010', 'loopback')).resolves.toBeUndefined();
    await expect(
      checkAtsUrlPolicy('http://ats-a-sandbox:4010', 'loopback', resolveTo('172.18.0.4')),
    ).rejects.toMatchObject({ code: 'blocked_address' });
    await expect(
      checkAtsUrlPolicy('http://ats-a-sandbox:4010', 'private', resolveTo('172.18.0.4')),
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
