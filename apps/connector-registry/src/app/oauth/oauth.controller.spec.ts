import type { Request, Response } from 'express';
import type { AdminIdentity } from '../auth/api-keys';
import { AuthorizeController } from './oauth.controller';
import type { OAuthService } from './oauth.service';

describe(AuthorizeController.name, () => {
  const oauth = {
    start: async () => ({ authorizeUrl: 'https://ats/authorize?state=s1', nonce: 'n1', state: 's1' }),
  } as unknown as OAuthService;
  const admin: AdminIdentity = { accountId: 'acct', adminId: 'a' };
  const cookieSet = async (publicUrl: string, secureRequest: boolean) => {
    const sut = new AuthorizeController(oauth, { ADMIN_PAGE_PATH: '/admin', PUBLIC_URL: publicUrl });
    const headers: Record<string, string> = {};
    const response = {
      setHeader: (name: string, value: string) => (headers[name] = value),
    } as unknown as Response;
    await sut.authorize(admin, 'c1', { secure: secureRequest } as Request, response);
    return headers['Set-Cookie'] ?? '';
  };

  it('sets the login cookie Secure when the admin page is on https, directly or behind a TLS proxy', async () => {
    expect(await cookieSet('https://connectors.example.com', false)).toMatch(/; Secure$/);
    expect(await cookieSet('http://127.0.0.1:3000', true)).toMatch(/; Secure$/);
    expect(await cookieSet('http://127.0.0.1:3000', false)).not.toMatch(/Secure/);
  });
});
