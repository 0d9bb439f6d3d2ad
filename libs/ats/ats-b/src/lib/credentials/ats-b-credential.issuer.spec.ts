import type { CredentialInput, RenewalHooks, StoredAccess } from '@connector/ats-core';
import { AtsError, outboundGuard } from '@connector/ats-http';
import { AtsBOAuthClient } from '../client/ats-b-oauth.client';
import { AtsBCredentialIssuer } from './ats-b-credential.issuer';

const ROUTER_OAUTH = 'https://auth.bullhornstaffing.com/oauth';
const ROUTER_REST = 'https://rest.bullhornstaffing.com/rest-services';
const DC2_OAUTH = 'https://auth-emea9.bullhornstaffing.com/oauth';
const DC2_REST = 'https://rest-emea9.bullhornstaffing.com/rest-services';

/**
 * The vendor as its docs describe it (ats-b.md "Data centres"): the routers answer a call for a customer of
 * another data centre with a 307 to it, query kept; the data centre answers. Every request is recorded.
 */
function vendor(overrides: Record<string, (url: URL) => Response> = {}) {
  const calls: URL[] = [];
  const to = (base: string) => (url: URL) =>
    new Response(null, {
      status: 307,
      headers: { location: `${base}${url.pathname.replace(/^\/\w+(-\w+)?/, '')}${url.search}` },
    });
  const answers: Record<string, (url: URL) => Response> = {
    [`${ROUTER_OAUTH}/token`]: to(DC2_OAUTH),
    [`${ROUTER_REST}/login`]: to(DC2_REST),
    [`${DC2_OAUTH}/token`]: (url) =>
      Response.json({
        access_token: `at-${url.searchParams.get('code') ?? url.searchParams.get('refresh_token')}`,
        refresh_token: `rt-next`,
        expires_in: 600,
      }),
    [`${DC2_REST}/login`]: () =>
      Response.json({
        BhRestToken: 'bh-1',
        restUrl: 'https://rest-emea9.bullhornstaffing.com/rest-services/corp1/',
      }),
    ...overrides,
  };
  const fetch = async (input: string | URL | Request) => {
    const url = new URL(String(input));
    calls.push(url);
    const answer = answers[`${url.origin}${url.pathname}`];
    return answer ? answer(url) : new Response('{"errorMessage":"no such host"}', { status: 404 });
  };
  return { calls, fetch };
}

function issuerOn(fetch: typeof globalThis.fetch) {
  const warnings: string[] = [];
  const oauth = new AtsBOAuthClient(
    {
      clientId: 'platform-client',
      clientSecret: 'platform-secret',
      redirectUri: 'https://platform.example/oauth/ats-b/callback',
      oauthUrl: ROUTER_OAUTH,
      restLoginUrl: ROUTER_REST,
      allowedHosts: ['.bullhornstaffing.com'],
      onRefused: ({ endpoint, host, reason }) => warnings.push(`${endpoint} ${host} ${reason}`),
    },
    { fetch, quickRetry: false },
  );
  return { oauth, issuer: new AtsBCredentialIssuer(oauth, outboundGuard()), warnings };
}

const hooks = (): RenewalHooks & {
  persisted: { secret: string; access?: StoredAccess }[];
  spent: number;
} => {
  const state = {
    persisted: [] as { secret: string; access?: StoredAccess }[],
    spent: 0,
    beforeSpend: async () => {
      state.spent++;
    },
    persistSecret: async (secret: string, access?: StoredAccess) => {
      state.persisted.push({ secret, access });
    },
  };
  return state;
};

const input = (current?: StoredAccess): CredentialInput => ({
  connectorId: 'c1',
  accountId: 'acct',
  baseUrl: null,
  clientId: null,
  secret: 'rt-1',
  current,
});

const origins = (calls: URL[]) => calls.map((url) => `${url.host}${url.pathname}`);

describe(AtsBCredentialIssuer.name, () => {
  it("learns the customer's data centre from the 307s of its login and keeps it in the access", async () => {
    const { calls, fetch } = vendor();
    const { oauth, issuer } = issuerOn(fetch);
    const tokens = await oauth.exchangeCode('code-1');
    expect(tokens).toMatchObject({ accessToken: 'at-code-1', oauthUrl: DC2_OAUTH });
    const { access } = await issuer.firstSession(
      tokens.accessToken,
      tokens.expiresInSeconds,
      tokens.oauthUrl,
    );
    expect(access).toMatchObject({
      bhRestToken: 'bh-1',
      restUrl: 'https://rest-emea9.bullhornstaffing.com/rest-services/corp1/',
      oauthUrl: DC2_OAUTH,
      restLoginUrl: DC2_REST,
    });
    expect(origins(calls)).toEqual([
      'auth.bullhornstaffing.com/oauth/token',
      'auth-emea9.bullhornstaffing.com/oauth/token',
      'rest.bullhornstaffing.com/rest-services/login',
      'rest-emea9.bullhornstaffing.com/rest-services/login',
    ]);
    // The hop kept POST and the query (the code and the client secret travel there, and only there).
    expect(calls[1]!.searchParams.get('code')).toBe('code-1');
  });

  it('refreshes and logs in straight at the kept data centre, and keeps it with the rotated token', async () => {
    const { calls, fetch } = vendor();
    const { issuer } = issuerOn(fetch);
    const renewal = hooks();
    const expired: StoredAccess = {
      accessToken: 'at-old',
      accessTokenExpiresAt: new Date(Date.now() - 1000).toISOString(),
      oauthUrl: DC2_OAUTH,
      restLoginUrl: DC2_REST,
    };
    const issued = await issuer.renew(input(expired), renewal);
    expect(origins(calls)).toEqual([
      'auth-emea9.bullhornstaffing.com/oauth/token',
      'rest-emea9.bullhornstaffing.com/rest-services/login',
    ]);
    expect(renewal.persisted).toEqual([
      {
        secret: 'rt-next',
        access: expect.objectContaining({
          accessToken: 'at-rt-1',
          oauthUrl: DC2_OAUTH,
          restLoginUrl: DC2_REST,
        }),
      },
    ]);
    expect(issued.access).toMatchObject({ oauthUrl: DC2_OAUTH, restLoginUrl: DC2_REST, bhRestToken: 'bh-1' });
  });

  it('an access from before data centres were kept goes through the routers and learns it', async () => {
    const { calls, fetch } = vendor();
    const { issuer } = issuerOn(fetch);
    const issued = await issuer.renew(input(undefined), hooks());
    expect(origins(calls)).toHaveLength(4);
    expect(issued.access).toMatchObject({ oauthUrl: DC2_OAUTH, restLoginUrl: DC2_REST });
  });

  it('never spends the refresh token at a kept address outside the vendor hosts (a tampered row)', async () => {
    const { calls, fetch } = vendor();
    const { issuer, warnings } = issuerOn(fetch);
    const renewal = hooks();
    const tampered: StoredAccess = {
      accessToken: 'at-old',
      accessTokenExpiresAt: new Date(Date.now() - 1000).toISOString(),
      oauthUrl: 'https://collector.evil.example/oauth',
      restLoginUrl: DC2_REST,
    };
    const error = await issuer.renew(input(tampered), renewal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AtsError);
    expect(error).toMatchObject({ kind: 'permanent', code: 'address_not_allowed' });
    expect((error as Error).message).toContain('collector.evil.example');
    expect(calls).toEqual([]);
    expect(renewal.spent).toBe(0);
    expect(warnings).toEqual([
      "POST /oauth/token (refresh_token) collector.evil.example not one of ATS-B's allowed hosts (ATS_B_ALLOWED_HOSTS)",
    ]);
  });

  it('refuses a 307 elsewhere than the vendor hosts: nothing reaches that host, and it is reported', async () => {
    const { calls, fetch } = vendor({
      [`${ROUTER_OAUTH}/token`]: (url) =>
        new Response(null, {
          status: 307,
          headers: { location: `http://localhost:9999/oauth/token${url.search}` },
        }),
    });
    const { issuer, warnings } = issuerOn(fetch);
    const error = await issuer.renew(input(undefined), hooks()).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'permanent', code: 'redirect_refused', status: 307 });
    expect((error as Error).message).toContain('localhost:9999');
    expect((error as Error).message).not.toMatch(/rt-1|platform-secret/);
    expect(warnings.join()).not.toMatch(/rt-1|platform-secret/);
    expect(warnings).toEqual([expect.stringContaining('localhost:9999')]);
    expect(calls.map((url) => url.host)).toEqual(['auth.bullhornstaffing.com']);
  });

  it("refuses a session whose restUrl is not the vendor's (where the session token would go)", async () => {
    const { fetch } = vendor({
      [`${DC2_REST}/login`]: () =>
        Response.json({ BhRestToken: 'bh-1', restUrl: 'https://rest.evil.example/x/' }),
    });
    const { issuer } = issuerOn(fetch);
    await expect(issuer.renew(input(undefined), hooks())).rejects.toMatchObject({
      code: 'address_not_allowed',
      message: expect.stringContaining('rest.evil.example'),
    });
  });
});
