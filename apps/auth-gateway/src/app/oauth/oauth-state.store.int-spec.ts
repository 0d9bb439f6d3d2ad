import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '@connector/persistence';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { SERVICE_NAME } from '../auth-gateway.config';
import { AUTH_GATEWAY_SCHEMA } from '../auth-gateway.schema';
import { OperatorAlert, OperatorAlerts } from '../credentials/operator-alerts';
import { SecretBox } from '../crypto/secret-box';
import { OAuthStateStore } from './oauth-state.store';

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
    dataSource = await new DataSource(
      dataSourceOptions({ url: database.url, service: SERVICE_NAME, ...AUTH_GATEWAY_SCHEMA }),
    ).initialize();
    await runMigrations(dataSource, AUTH_GATEWAY_SCHEMA.shared);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('hands back the PKCE verifier only for the state and connector it was sealed for', async () => {
    const alerts = new OperatorAlerts();
    const sut = new OAuthStateStore(dataSource, secrets, alerts);
    const kept = await sut.issue(login('c1'), 600, 'verifier-kept');
    await expect(sut.consume(kept.state, 'n')).resolves.toMatchObject({
      connectorId: 'c1',
      verifier: 'verifier-kept',
    });

    // The pending login moved to another connector in the database: its code would authorize that one.
    const moved = await sut.issue(login('c1'), 600, 'verifier-moved');
    await dataSource.query(`UPDATE oauth_state SET connector_id = 'c2' WHERE used_at IS NULL`);
    await expect(sut.consume(moved.state, 'n')).resolves.toBeUndefined();
    expect(alerts.count(OperatorAlert.SealedSecretMismatch)).toBe(1);
  });
});
