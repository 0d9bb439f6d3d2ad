import { clientOf } from './failed-key-attempts';

describe(clientOf.name, () => {
  it.each([
    ['198.51.100.7', '198.51.100.7'],
    ['::ffff:198.51.100.7', '198.51.100.7'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:0000:0000:0000:0001', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['unknown', 'unknown'],
  ])('counts %s as %s', (address, client) => {
    expect(clientOf(address)).toBe(client);
  });

  it('puts rotating addresses of one /64 together, and another /64 apart', () => {
    expect(clientOf('2001:db8:1:2::a')).toBe(clientOf('2001:db8:1:2:ffff::b'));
    expect(clientOf('2001:db8:1:3::a')).not.toBe(clientOf('2001:db8:1:2::a'));
  });
});
