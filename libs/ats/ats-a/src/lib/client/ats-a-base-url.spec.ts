import { UrlPolicyError } from '@connector/ats-http';
import { normalizeAtsABaseUrl } from './ats-a-base-url';

describe(normalizeAtsABaseUrl.name, () => {
  it.each([
    ['https://acme.eploy.net', 'https://acme.eploy.net'],
    ['https://acme.eploy.net/', 'https://acme.eploy.net'],
    ['https://acme.eploy.net/api', 'https://acme.eploy.net'],
    ['https://acme.eploy.net/api/', 'https://acme.eploy.net'],
    ['https://acme.eploy.net/API//', 'https://acme.eploy.net'],
    ['  https://acme.eploy.net/api/  ', 'https://acme.eploy.net'],
    ['https://ACME.eploy.net:8443/', 'https://acme.eploy.net:8443'],
    ['https://acme.eploy.net:443', 'https://acme.eploy.net'],
    ['https://host.example/prefix/api', 'https://host.example/prefix'],
    ['https://host.example/apis', 'https://host.example/apis'],
    ['http://127.0.0.1:4010/api?x=1#y', 'http://127.0.0.1:4010'],
    ['acme.eploy.net', 'https://acme.eploy.net'],
    ['acme.eploy.net/api/', 'https://acme.eploy.net'],
  ])('%j → %s', (input, expected) => {
    expect(normalizeAtsABaseUrl(input)).toBe(expected);
  });

  it('is idempotent', () => {
    const once = normalizeAtsABaseUrl('https://acme.eploy.net/api/');
    expect(normalizeAtsABaseUrl(once)).toBe(once);
  });

  it.each(['', '   ', 'ftp://acme.eploy.net', 'mailto:x@y.z', 'https://', 'http://exa mple.com'])(
    'refuses %j with a typed error',
    (input) => {
      expect(() => normalizeAtsABaseUrl(input)).toThrow(UrlPolicyError);
    },
  );
});
