import { OAuthError } from '../sandbox.error';
import { TokenService } from './token.service';

describe(TokenService.name, () => {
  let now = 0;
  const service = new TokenService(
    [
      { clientId: 'a', clientSecret: 's' },
      { clientId: 'narrow', clientSecret: 's', scopes: ['vacancies.read'] },
    ],
    60,
    () => now,
  );
  const grant = (extra: Record<string, string> = {}) =>
    service.issue({ grant_type: 'client_credentials', client_id: 'a', client_secret: 's', ...extra });

  it('issues tokens that expire after the ttl', () => {
    const token = grant();
    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 60 });
    expect(service.check(`Bearer ${token.access_token}`).ok).toBe(true);
    now += 60_000;
    expect(service.check(`Bearer ${token.access_token}`).ok).toBe(false);
  });

  it('refuses bad credentials, grant types and scopes with the OAuth codes', () => {
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return (e as OAuthError).code;
      }
      return 'none';
    };
    expect(code(() => grant({ client_secret: 'x' }))).toBe('invalid_client');
    expect(code(() => grant({ grant_type: 'password' }))).toBe('unsupported_grant_type');
    expect(
      code(() =>
        service.issue({
          grant_type: 'client_credentials',
          client_id: 'narrow',
          client_secret: 's',
          scope: 'candidates.insert',
        }),
      ),
    ).toBe('invalid_scope');
  });

  it('narrows a token to the scopes asked for', () => {
    const token = grant({ scope: 'vacancies.read,contacts.read' });
    const check = service.check(`Bearer ${token.access_token}`);
    expect(check.ok && [...check.scopes]).toEqual(['vacancies.read', 'contacts.read']);
  });
});
