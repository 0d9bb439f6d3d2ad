import { createHash } from 'node:crypto';
import { AtsBError, OAuthError } from './ats-b.error';
import { OAuthStore } from './oauth.store';

describe(OAuthStore.name, () => {
  let now = 1_000_000;
  const client = { clientId: 'c', clientSecret: 's' };
  const make = (redirectUris?: string[]) =>
    new OAuthStore(
      {
        client: { ...client, redirectUris },
        users: [{ username: 'u', password: 'p' }],
        accessTokenTtlSeconds: 600,
        sessionTtlSeconds: 600,
        codeTtlSeconds: 60,
        sessionSliding: true,
      },
      () => now,
    );
  const grantError = (fn: () => unknown): string => {
    try {
      fn();
    } catch (err) {
      if (err instanceof OAuthError) return `${err.status} ${err.error}`;
      throw err;
    }
    return 'ok';
  };

  it('a code is single use and short-lived', () => {
    const store = make();
    const code = store.issueCode('u', 'c', 'http://127.0.0.1/cb');
    const params = { code, clientId: 'c', clientSecret: 's', redirectUri: 'http://127.0.0.1/cb' };
    expect(store.exchangeCode(params).token_type).toBe('Bearer');
    expect(grantError(() => store.exchangeCode(params))).toBe('400 invalid_grant');
    const late = store.issueCode('u', 'c', null);
    now += 61_000;
    expect(grantError(() => store.exchangeCode({ ...params, code: late }))).toBe('400 invalid_grant');
  });

  it('PKCE: a code bound to an S256 challenge needs the matching verifier; one without a challenge takes none', () => {
    const store = make();
    const verifier = 'v'.repeat(10) + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const exchange = (code: string, codeVerifier?: string) =>
      grantError(() =>
        store.exchangeCode({ code, clientId: 'c', clientSecret: 's', redirectUri: undefined, codeVerifier }),
      );
    const issue = () => store.issueCode('u', 'c', null, { challenge, method: 'S256' });
    expect(exchange(issue())).toBe('400 invalid_grant');
    expect(exchange(issue(), `${verifier.slice(0, -1)}x`)).toBe('400 invalid_grant');
    expect(exchange(issue(), verifier)).toBe('ok');
    expect(exchange(store.issueCode('u', 'c', null))).toBe('ok');
    expect(exchange(store.issueCode('u', 'c', null), verifier)).toBe('400 invalid_request');
  });

  it('a refresh token is single use and rotates', () => {
    const store = make();
    const first = store.exchangeCode({
      code: store.issueCode('u', 'c', null),
      clientId: 'c',
      clientSecret: 's',
    });
    const second = store.refresh({ refreshToken: first.refresh_token, clientId: 'c', clientSecret: 's' });
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(
      grantError(() =>
        store.refresh({ refreshToken: first.refresh_token, clientId: 'c', clientSecret: 's' }),
      ),
    ).toBe('400 invalid_grant');
    expect(
      store.refresh({ refreshToken: second.refresh_token, clientId: 'c', clientSecret: 's' }).access_token,
    ).toBeTruthy();
  });

  it('bad client secret → 401 invalid_client, and the token survives it', () => {
    const store = make();
    const t = store.exchangeCode({ code: store.issueCode('u', 'c', null), clientId: 'c', clientSecret: 's' });
    expect(
      grantError(() => store.refresh({ refreshToken: t.refresh_token, clientId: 'c', clientSecret: 'x' })),
    ).toBe('401 invalid_client');
    expect(
      grantError(() => store.refresh({ refreshToken: t.refresh_token, clientId: 'c', clientSecret: 's' })),
    ).toBe('ok');
  });

  it('rejectNextRefresh and revocation answer invalid_grant', () => {
    const store = make();
    const t = store.exchangeCode({ code: store.issueCode('u', 'c', null), clientId: 'c', clientSecret: 's' });
    store.rejectNextRefresh();
    expect(
      grantError(() => store.refresh({ refreshToken: t.refresh_token, clientId: 'c', clientSecret: 's' })),
    ).toBe('400 invalid_grant');
    const t2 = store.exchangeCode({
      code: store.issueCode('u', 'c', null),
      clientId: 'c',
      clientSecret: 's',
    });
    store.revokeRefreshTokens();
    expect(
      grantError(() => store.refresh({ refreshToken: t2.refresh_token, clientId: 'c', clientSecret: 's' })),
    ).toBe('400 invalid_grant');
  });

  it('sessions time out after inactivity; expired access tokens cannot log in', () => {
    const store = make();
    const t = store.exchangeCode({ code: store.issueCode('u', 'c', null), clientId: 'c', clientSecret: 's' });
    const s = store.login(t.access_token);
    now += 500_000;
    expect(store.session(s.token, s.corpToken)).toBeDefined();
    now += 500_000;
    expect(store.session(s.token, s.corpToken)).toBeDefined(); // touched 500 s ago: still alive
    now += 601_000;
    expect(store.session(s.token, s.corpToken)).toBeUndefined();
    expect(() => store.login(t.access_token)).toThrow(AtsBError);
  });

  it('allows loopback redirects by default, exact ones when registered', () => {
    expect(make().isRedirectAllowed('http://localhost:3000/cb')).toBe(true);
    expect(make().isRedirectAllowed('https://evil.example/cb')).toBe(false);
    expect(make(['https://app.example/cb']).isRedirectAllowed('https://app.example/cb')).toBe(true);
    expect(make(['https://app.example/cb']).isRedirectAllowed('http://127.0.0.1/cb')).toBe(false);
  });
});
