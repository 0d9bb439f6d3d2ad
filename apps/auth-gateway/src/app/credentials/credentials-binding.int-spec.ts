import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { startAtsASandbox, type RunningAtsASandbox } from '@connector/ats-a-sandbox';
import { outboundGuard } from '@connector/ats-http';
import { type OutboxRelay, preparedStatements } from '@connector/persistence';
import { migratedDataSource } from '@connector/persistence/testing';
import { PostgresDailyQuota } from '@connector/rate-limiter';
import { createTestDatabase, type HttpGate, startHttpGate, type TestDatabase } from '@connector/testing';
import { atsRegistry } from '@connector/ats-registry';
import { type AuthGatewayConfig, SERVICE_NAME } from '../auth-gateway.config';
import { AUTH_GATEWAY_SCHEMA } from '../auth-gateway.schema';
import { SecretBox } from '../crypto/secret-box';
import { CredentialRecheckJob } from './credential-recheck.job';
import { CredentialRenewalJob } from './credential-renewal.job';
import { credentialIssuers } from './credentials.module';
import { CredentialsRepository } from './credentials.repository';
import { CredentialsService } from './credentials.service';
import { OperatorAlert, OperatorAlerts } from './operator-alerts';

const CLIENT = { clientId: 'demo-client', clientSecret: `secret-${randomBytes(6).toString('hex')}` };
const TOKEN_CALL = 'POST /api/token';

/**
 * Someone with the database's credentials but not ENCRYPTION_KEYS rewrites where a connector's secret goes
 * (its address, client id or ATS type) or moves a sealed value to another column: the gateway sends the
 * secret nowhere, marks the connector as needing new credentials (auth_failed through the outbox) and
 * alerts. The ATS-A sandbox over HTTP is the customer's ATS; a second listener (a pass-through to it, as a
 * man in the middle would be) is the attacker's address, and ATS-B's too.
 */
describe('sealed secrets bound to where they go, on Postgres and the ATS-A sandbox', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let sandbox: RunningAtsASandbox;
  let attacker: HttpGate;
  /** Every request the attacker's listener received. */
  const received: string[] = [];
  let repository: CredentialsRepository;
  let alerts: OperatorAlerts;
  let sut: CredentialsService;
  const secrets = SecretBox.fromEnv(`k1:${randomBytes(32).toString('base64')}`);

  const tokenCalls = () => sandbox.state.callCounts().byEndpoint[TOKEN_CALL] ?? 0;
  const store = (connectorId: string, access?: { expiresInMs: number }) =>
    sut.store({
      connectorId,
      accountId: 'acct',
      atsType: 'ats-a',
      baseUrl: sandbox.url,
      clientId: CLIENT.clientId,
      secret: CLIENT.clientSecret,
      ...(access
        ? {
            access: {
              value: { accessToken: `stored-${connectorId}`, accessTokenExpiresAt: '' },
              expiresAt: new Date(Date.now() + access.expiresInMs),
            },
          }
        : {}),
    });
  /** What the database writer does: one column of the row, in SQL. */
  const tamper = (connectorId: string, set: string) =>
    dataSource.query(`UPDATE connector_credential SET ${set} WHERE connector_id = $1`, [connectorId]);
  const announced = async (connectorId: string) =>
    (
      (await dataSource.query(
        `SELECT envelope->'data' AS data FROM outbox_message WHERE envelope->'data'->>'connectorId' = $1`,
        [connectorId],
      )) as Array<{ data: unknown }>
    ).map((row) => row.data);
  const mismatchAlerts = () => alerts.count(OperatorAlert.SealedSecretMismatch);

  beforeAll(async () => {
    database = await createTestDatabase('gateway_binding');
    dataSource = await migratedDataSource(database.url, { service: SERVICE_NAME, ...AUTH_GATEWAY_SCHEMA });
    repository = new CredentialsRepository(dataSource);
    sandbox = await startAtsASandbox({ clients: [CLIENT], seed: { vacancies: 1 } });
    attacker = await startHttpGate(sandbox.url, (request) => {
      received.push(`${request.method} ${request.url}`);
      return false;
    });
  }, 60_000);

  beforeEach(() => {
    received.length = 0;
    alerts = new OperatorAlerts();
    const guard = outboundGuard('loopback');
    // The gateway's ATS-B OAuth client: its settings point at the attacker too, so an ATS-A row turned
    // into an ATS-B one would send its secret there as a refresh token.
    const atsBSettings = {
      ATS_B_CLIENT_ID: 'platform-client',
      ATS_B_CLIENT_SECRET: 'platform-secret',
      ATS_B_REDIRECT_URI: 'http://127.0.0.1/callback',
      ATS_B_OAUTH_URL: `${attacker.url}/oauth`,
      ATS_B_REST_LOGIN_URL: `${attacker.url}/rest-services`,
    };
    const issuers = credentialIssuers(
      {
        guard,
        quota: new PostgresDailyQuota(preparedStatements(dataSource)),
        logger: new Logger('CredentialIssuer'),
        settingsOf: (type) => (type === 'ats-b' ? atsBSettings : {}),
      },
      atsRegistry,
    );
    sut = new CredentialsService(
      repository,
      secrets,
      issuers,
      { wake: () => undefined } as unknown as OutboxRelay,
      alerts,
      { CREDENTIAL_RECHECK_SECONDS: 300 },
      atsRegistry,
    );
  });

  afterAll(async () => {
    await attacker?.close();
    await sandbox?.close();
    await dataSource?.destroy();
    await database?.drop();
  });

  it('a changed base_url: the re-check sends the refused secret nowhere, alerts, and a save makes it work again', async () => {
    await store('moved');
    // ATS-A refused it a while ago (as rejectAtsA leaves it): due to be tried again.
    await tamper('moved', `state = 'rejected', recheck_at = now() - interval '1 second'`);
    await tamper('moved', `base_url = '${attacker.url}'`);

    const config = { CREDENTIAL_RECHECK_SECONDS: 300 } as AuthGatewayConfig;
    await new CredentialRecheckJob(repository, sut, config).runOnce();

    expect({ attackerReceived: received }).toEqual({ attackerReceived: [] });
    expect(await repository.find('moved')).toMatchObject({ state: 'authorization_required' });
    expect(mismatchAlerts()).toBe(1);
    // Nobody gets access for it until an admin saves the credentials again.
    await expect(sut.getAccess('moved')).rejects.toMatchObject({ code: 'AUTHORIZATION_REQUIRED' });
    expect({ attackerReceived: received }).toEqual({ attackerReceived: [] });

    // The admin's save (auth.credentials.save) seals them for the address it saves: renewals work again.
    await store('moved');
    await expect(sut.getAccess('moved')).resolves.toMatchObject({ baseUrl: sandbox.url });
  });

  it('a changed base_url: access is not handed out for it, and renewing ahead sends nothing', async () => {
    await store('handed', { expiresInMs: 180_000 });
    await store('ahead', { expiresInMs: 180_000 });
    await expect(sut.getAccess('ahead')).resolves.toMatchObject({ accessToken: 'stored-ahead' });
    await tamper('handed', `base_url = '${attacker.url}'`);
    await tamper('ahead', `base_url = '${attacker.url}', renew_at = now() - interval '1 second'`);

    // A worker would call the row's address with the access token: it gets none.
    await expect(sut.getAccess('handed')).rejects.toMatchObject({ code: 'AUTHORIZATION_REQUIRED' });
    const before = tokenCalls();
    await new CredentialRenewalJob(repository, sut, { RENEW_AHEAD_BATCH: 10, RENEWALS_MAX: 2 }).runOnce();

    expect({ attackerReceived: received }).toEqual({ attackerReceived: [] });
    expect(tokenCalls()).toBe(before);
    for (const connectorId of ['handed', 'ahead']) {
      expect(await repository.find(connectorId)).toMatchObject({ state: 'authorization_required' });
      expect(await announced(connectorId)).toEqual([
        { connectorId, status: 'auth_failed', reason: 'sealed_secret_mismatch' },
      ]);
    }
    expect(mismatchAlerts()).toBe(2);
  });

  it('a changed client_id: the secret is not sent with it', async () => {
    await store('reclient');
    await tamper('reclient', `client_id = 'someone-elses-client'`);
    const before = tokenCalls();

    await expect(sut.getAccess('reclient')).rejects.toMatchObject({ code: 'AUTHORIZATION_REQUIRED' });

    expect({ tokenCallsToTheAts: tokenCalls() - before }).toEqual({ tokenCallsToTheAts: 0 });
    expect(await repository.find('reclient')).toMatchObject({ state: 'authorization_required' });
    expect(mismatchAlerts()).toBe(1);
  });

  it('a changed ats_type: an ATS-A secret is not sent to ATS-B as a refresh token', async () => {
    await store('retyped');
    await tamper('retyped', `ats_type = 'ats-b'`);

    const refusal: unknown = await sut.getAccess('retyped').catch((error: unknown) => error);

    expect({ attackerReceived: received }).toEqual({ attackerReceived: [] });
    expect(refusal).toMatchObject({ code: 'AUTHORIZATION_REQUIRED' });
    expect(await repository.find('retyped')).toMatchObject({ state: 'authorization_required' });
    expect(mismatchAlerts()).toBe(1);
  });

  it("an ATS-B connector's data centre copied from another row does not open: its refresh token goes nowhere", async () => {
    // Two ATS-B connectors as their logins left them: each one's data centre kept in its sealed access.
    const atsB = (connectorId: string, oauthUrl: string) =>
      sut.store({
        connectorId,
        accountId: 'acct',
        atsType: 'ats-b',
        secret: `rt-${connectorId}`,
        access: {
          value: {
            accessToken: `at-${connectorId}`,
            accessTokenExpiresAt: new Date(0).toISOString(),
            oauthUrl,
            restLoginUrl: oauthUrl.replace(/\/oauth$/, '/rest-services'),
          },
          expiresAt: new Date(Date.now() - 1000),
        },
      });
    await atsB('dc-victim', 'https://auth-emea9.bullhornstaffing.com/oauth');
    await atsB('dc-planted', `${attacker.url}/oauth`);
    // The database writer points the victim's next refresh at the attacker's data centre.
    await tamper(
      'dc-victim',
      `access = (SELECT access FROM connector_credential WHERE connector_id = 'dc-planted')`,
    );

    await expect(sut.getAccess('dc-victim')).rejects.toMatchObject({ code: 'AUTHORIZATION_REQUIRED' });

    expect({ attackerReceived: received }).toEqual({ attackerReceived: [] });
    expect(await repository.find('dc-victim')).toMatchObject({ state: 'authorization_required' });
    expect(mismatchAlerts()).toBe(1);
  });

  it('a sealed value copied to another column does not open there: nothing is sent', async () => {
    await store('copied', { expiresInMs: 180_000 });
    // The access (a token) put where the client secret goes, and the access made due for renewal.
    await tamper('copied', `secret = access, access_expires_at = now() - interval '1 hour'`);
    const before = tokenCalls();

    await expect(sut.getAccess('copied')).rejects.toMatchObject({ code: 'AUTHORIZATION_REQUIRED' });

    expect({ tokenCallsToTheAts: tokenCalls() - before }).toEqual({ tokenCallsToTheAts: 0 });
    expect(await repository.find('copied')).toMatchObject({ state: 'authorization_required' });
    expect(mismatchAlerts()).toBe(1);
  });
});
