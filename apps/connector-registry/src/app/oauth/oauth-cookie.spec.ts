import { clearedNonceCookie, nonceCookie, oauthCookieName, readNonce } from './oauth-cookie';

describe('OAuth login cookie', () => {
  it('is named per login, so a second login does not replace the first one’s nonce', () => {
    const first = nonceCookie('state-1', 'nonce-1', false);
    const second = nonceCookie('state-2', 'nonce-2', false);
    expect(first.split('=')[0]).not.toBe(second.split('=')[0]);
    const header = [first, second].map((c) => c.split(';')[0]).join('; ');
    expect(readNonce(header, 'state-1')).toBe('nonce-1');
    expect(readNonce(header, 'state-2')).toBe('nonce-2');
    expect(readNonce(header, 'state-3')).toBeUndefined();
    expect(oauthCookieName('state-1')).not.toContain('state-1');
  });

  it('is Secure on https, HttpOnly and SameSite=Lax always, and cleared by name', () => {
    expect(nonceCookie('s', 'n', true)).toMatch(
      /; HttpOnly; SameSite=Lax; Path=\/oauth; Max-Age=600; Secure$/,
    );
    expect(nonceCookie('s', 'n', false)).not.toMatch(/Secure/);
    expect(clearedNonceCookie('s', true)).toBe(
      `${oauthCookieName('s')}=; HttpOnly; SameSite=Lax; Path=/oauth; Max-Age=0; Secure`,
    );
  });
});
