import { AtsError, OutboundGuard } from '@connector/ats-http';
import { AtsRegistry, type InteractiveLogin } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import { FAKE_ATS, fakeAtsAdapter } from '@connector/ats-testing';
import { atsLogins } from '../credentials/credentials.module';
import type { CredentialsService } from '../credentials/credentials.service';
import { OperatorAlert, OperatorAlerts } from '../credentials/operator-alerts';
import { type AtsLogin, InteractiveLoginFlow } from './interactive-login.flow';
import type { StrategyOutcome } from './oauth-login.strategy';
import type { OAuthContext, OAuthStateStore } from './oauth-state.store';
import type { OAuthStateEntity } from './oauth-state.entity';

/** A login whose passport round trip is decided in advance. */
const loginWith = (outcome: StrategyOutcome, steps: Partial<InteractiveLogin> = {}): AtsLogin => ({
  atsType: 'ats-b',
  label: 'ATS-B',
  steps: {
    oauth: { authorizeUrl: '', tokenUrl: '', clientId: '', clientSecret: '', callbackUrl: '' },
    exchangeCode: () => Promise.reject(new Error('not called')),
    firstSession: () => Promise.reject(new Error('not called')),
    clientRejected: (error) => error instanceof AtsError && error.code === 'invalid_client',
    ...steps,
  },
  strategy: { run: async () => outcome },
});

describe(InteractiveLoginFlow.name, () => {
  const withOutcome = (outcome: StrategyOutcome, alerts: OperatorAlerts) =>
    new InteractiveLoginFlow([loginWith(outcome)], {} as CredentialsService, alerts);

  it('alerts the operator when the ATS refuses the platform’s client at a login, and says the login failed', async () => {
    const alerts = new OperatorAlerts();
    const refused = new AtsError('ATS-B refused the platform’s OAuth client ID or secret', {
      kind: 'auth',
      endpoint: 'POST /oauth/token (authorization_code)',
      status: 401,
      code: 'invalid_client',
    });
    // As passport hands it over: wrapped in an InternalOAuthError.
    const wrapped = Object.assign(new Error('Failed to obtain access token'), { oauthError: refused });
    await expect(
      withOutcome({ kind: 'error', error: wrapped }, alerts).complete('ats-b', 'c', 's', 'n'),
    ).rejects.toMatchObject({
      code: 'AUTH_FAILED',
      message: expect.stringMatching(/OAuth client ID or secret/),
    });
    expect(alerts.count(OperatorAlert.OAuthClientRejected)).toBe(1);
  });

  it('raises no alert for a code the ATS refuses (invalid_grant: the admin starts the login again)', async () => {
    const alerts = new OperatorAlerts();
    const error = new AtsError('code used', {
      kind: 'auth',
      endpoint: 'POST /oauth/token',
      status: 400,
      code: 'invalid_grant',
    });
    await expect(
      withOutcome({ kind: 'error', error }, alerts).complete('ats-b', 'c', 's', 'n'),
    ).rejects.toMatchObject({ code: 'AUTH_FAILED' });
    expect(alerts.count(OperatorAlert.OAuthClientRejected)).toBe(0);
  });

  it('refuses, INVALID_REQUEST, a type with no interactive login', async () => {
    const flow = withOutcome(
      { kind: 'redirect', url: 'https://ats.example/authorize' },
      new OperatorAlerts(),
    );
    await expect(flow.complete('ats-a', 'c', 's', 'n')).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'type must be one of the following values: ats-b',
    });
  });

  describe('a third ATS from its own folder (the throwaway fake ATS), with no change to auth-gateway', () => {
    const guard = new OutboundGuard({ allowance: 'none' });
    afterAll(() => guard.close());
    const context: OAuthContext = {
      connectorId: 'c1',
      accountId: 'acct',
      adminId: 'admin',
      browserNonce: 'nonce',
    };
    // The state store as passport uses it: issues one state, and gives its context back once.
    const states = {
      issue: async () => ({ state: 'the-state', expiresAt: new Date(Date.now() + 60_000) }),
      consume: async (_type: string, state: string, nonce: string) =>
        state === 'the-state' && nonce === 'nonce' ? ({ ...context } as unknown as OAuthStateEntity) : null,
    } as unknown as OAuthStateStore;
    const exchanged: string[] = [];
    const registry = new AtsRegistry(atsRegistry.all());
    registry.register({
      ...fakeAtsAdapter,
      capabilities: [...fakeAtsAdapter.capabilities, 'interactive-login'],
      settings: [{ name: 'FAKE_ATS_CLIENT_ID', default: 'fake-client' }],
      interactiveLogin: ({ settings }) => ({
        oauth: {
          authorizeUrl: 'https://login.fake-ats.example/authorize',
          tokenUrl: 'https://login.fake-ats.example/token',
          clientId: settings['FAKE_ATS_CLIENT_ID'] ?? '',
          clientSecret: 'fake-secret',
          callbackUrl: 'https://connectors.example.com/oauth/fake-ats/callback',
        },
        exchangeCode: async (code) => {
          exchanged.push(code);
          return { accessToken: 'fake-access', refreshToken: 'fake-refresh', expiresInSeconds: 600 };
        },
        firstSession: async (tokens) => ({
          access: { accessToken: tokens.accessToken, accessTokenExpiresAt: new Date().toISOString() },
          expiresAt: new Date(Date.now() + 600_000),
        }),
        clientRejected: () => false,
      }),
    });

    it('opens its login page and stores what its own steps give back on the callback', async () => {
      const logins = atsLogins(
        {
          guard,
          // Each adapter's settings at their defaults (the fake ATS's client id among them).
          settingsOf: (type) =>
            Object.fromEntries((registry.get(type).settings ?? []).map((s) => [s.name, s.default])),
          states,
          stateTtlSeconds: 600,
        },
        registry,
      );
      expect(logins.map((login) => login.atsType)).toEqual([...registry.typesWith('interactive-login')]);
      const store = jest.fn().mockResolvedValue(undefined);
      const flow = new InteractiveLoginFlow(
        logins,
        { store } as unknown as CredentialsService,
        new OperatorAlerts(),
      );

      const { authorizeUrl } = await flow.start(FAKE_ATS, context, 600);
      const url = new URL(authorizeUrl);
      expect(url.origin + url.pathname).toBe('https://login.fake-ats.example/authorize');
      expect(url.searchParams.get('client_id')).toBe('fake-client');
      expect(url.searchParams.get('state')).toBe('the-state');
      expect(url.searchParams.get('redirect_uri')).toBe(
        'https://connectors.example.com/oauth/fake-ats/callback',
      );

      await expect(flow.complete(FAKE_ATS, 'the-code', 'the-state', 'nonce')).resolves.toEqual({
        connectorId: 'c1',
        accountId: 'acct',
      });
      expect(exchanged).toEqual(['the-code']);
      expect(store).toHaveBeenCalledWith(
        expect.objectContaining({ connectorId: 'c1', atsType: FAKE_ATS, secret: 'fake-refresh' }),
      );
    });
  });
});
