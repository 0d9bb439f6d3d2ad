import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { OutboundGuard } from '@connector/ats-http';
import { type AtsAdapter, AtsRegistry } from '@connector/ats-core';
import { fakeAtsAdapter } from '@connector/ats-testing';
import { migratedDataSource } from '@connector/persistence/testing';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { SERVICE_NAME } from '../auth-gateway.config';
import { AUTH_GATEWAY_SCHEMA } from '../auth-gateway.schema';
import { atsLogins } from '../credentials/credentials.module';
import type { CredentialsService } from '../credentials/credentials.service';
import { OperatorAlert, OperatorAlerts } from '../credentials/operator-alerts';
import { SecretBox } from '../crypto/secret-box';
import { InteractiveLoginFlow } from './interactive-login.flow';
import { OAuthStateStore } from './oauth-state.store';

/** A throwaway interactive-login ATS named `type`, whose code exchange records the codes it was given. */
function loginAts(type: string, exchanged: string[]): AtsAdapter {
  return {
    ...fakeAtsAdapter,
    type,
    capabilities: [...fakeAtsAdapter.capabilities, 'interactive-login'],
    interactiveLogin: () => ({
      oauth: {
        authorizeUrl: `https://login.${type}.example/authorize`,
        tokenUrl: `https://login.${type}.example/token`,
        clientId: `${type}-client`,
        clientSecret: `${type}-secret`,
        callbackUrl: `https://connectors.example.com/oauth/${type}/callback`,
      },
      exchangeCode: async (code) => {
        exchanged.push(`${type}:${code}`);
        return { accessToken: 'access', refreshToken: `${type}-refresh`, expiresInSeconds: 600 };
      },
      firstSession: async (tokens) => ({
        access: { accessToken: tokens.accessToken, accessTokenExpiresAt: new Date().toISOString() },
        expiresAt: new Date(Date.now() + 600_000),
      }),
      clientRejected: () => false,
    }),
  };
}

describe(`${OAuthStateStore.name} on Postgres`, () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const secrets = SecretBox.fromEnv(`k1:${randomBytes(32).toString('base64')}`);
  const login = (connectorId: string) => ({
    connectorId,
    accountId: 'acct',
    adminId: 'admin',
    browserNonce: 'n',
  });

  beforeAll(async () => {
    database = await createTestDatabase('gateway_oauth_state');
    dataSource = await migratedDataSource(database.url, { service: SERVICE_NAME, ...AUTH_GATEWAY_SCHEMA });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('hands back the PKCE verifier only for the state and connector it was sealed for', async () => {
    const alerts = new OperatorAlerts();
    const sut = new OAuthStateStore(dataSource, secrets, alerts);
    const kept = await sut.issue('login-one', login('c1'), 600, 'verifier-kept');
    await expect(sut.consume('login-one', kept.state, 'n')).resolves.toMatchObject({
      connectorId: 'c1',
      verifier: 'verifier-kept',
    });

    // The pending login moved to another connector in the database: its code would authorize that one.
    const moved = await sut.issue('login-one', login('c1'), 600, 'verifier-moved');
    await dataSource.query(`UPDATE oauth_state SET connector_id = 'c2' WHERE used_at IS NULL`);
    await expect(sut.consume('login-one', moved.state, 'n')).resolves.toBeUndefined();
    expect(alerts.count(OperatorAlert.SealedSecretMismatch)).toBe(1);
  });

  it('refuses a state brought back on another ATS’s callback, and leaves it to its own ATS', async () => {
    const exchanged: string[] = [];
    const registry = new AtsRegistry([loginAts('login-one', exchanged), loginAts('login-two', exchanged)]);
    const guard = new OutboundGuard({ allowance: 'none' });
    const states = new OAuthStateStore(dataSource, secrets, new OperatorAlerts());
    const logins = atsLogins({ guard, settingsOf: () => ({}), states, stateTtlSeconds: 600 }, registry);
    const store = jest.fn().mockResolvedValue(undefined);
    const flow = new InteractiveLoginFlow(
      logins,
      { store } as unknown as CredentialsService,
      new OperatorAlerts(),
    );
    try {
      const { authorizeUrl } = await flow.start('login-one', login('c3'), 600);
      const state = new URL(authorizeUrl).searchParams.get('state') ?? '';

      await expect(flow.complete('login-two', 'code', state, 'n')).rejects.toMatchObject({
        code: 'INVALID_STATE',
      });
      expect(exchanged).toEqual([]);

      // Not used up: the login still completes on its own ATS's callback.
      await expect(flow.complete('login-one', 'code', state, 'n')).resolves.toEqual({
        connectorId: 'c3',
        accountId: 'acct',
      });
      expect(exchanged).toEqual(['login-one:code']);
      expect(store).toHaveBeenCalledWith(
        expect.objectContaining({ connectorId: 'c3', atsType: 'login-one', secret: 'login-one-refresh' }),
      );
    } finally {
      await guard.close();
    }
  });
});
