import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { atsACredentialIssuer } from '@connector/ats-a';
import { startAtsASandbox, type RunningAtsASandbox } from '@connector/ats-a-sandbox';
import { outboundGuard } from '@connector/ats-http';
import { type OutboxRelay, preparedStatements } from '@connector/persistence';
import { migratedDataSource } from '@connector/persistence/testing';
import { PostgresDailyQuota } from '@connector/rate-limiter';
import { createTestDatabase, eventually, type TestDatabase } from '@connector/testing';
import { atsRegistry } from '@connector/ats-registry';
import { SERVICE_NAME } from '../auth-gateway.config';
import { AUTH_GATEWAY_SCHEMA } from '../auth-gateway.schema';
import { SecretBox } from '../crypto/secret-box';
import { CredentialRenewalJob } from './credential-renewal.job';
import { CredentialsRepository } from './credentials.repository';
import { CredentialsService } from './credentials.service';
import { OperatorAlerts } from './operator-alerts';

const CLIENT = { clientId: 'demo-client', clientSecret: `secret-${randomBytes(6).toString('hex')}` };
const TOKEN_CALL = 'POST /api/token';

/**
 * Renewals against the ATS-A sandbox over HTTP, two "gateway processes" (two services) on one database with
 * a pool of two connections: one renewal per connector however many ask, no connection held while the ATS
 * answers, and access in use renewed ahead of its end by the job.
 */
describe('auth-gateway renewals on Postgres and the ATS-A sandbox', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let slow: RunningAtsASandbox;
  let fast: RunningAtsASandbox;
  let repository: CredentialsRepository;
  const secrets = SecretBox.fromEnv(`k1:${randomBytes(32).toString('base64')}`);

  const gatewayProcess = () => {
    const quota = new PostgresDailyQuota(preparedStatements(dataSource));
    const issuer = atsACredentialIssuer({
      guard: outboundGuard('loopback'),
      quota,
      logger: { warn: () => undefined },
      settings: {},
    });
    return new CredentialsService(
      repository,
      secrets,
      [issuer],
      { wake: () => undefined } as unknown as OutboxRelay,
      new OperatorAlerts(),
      { CREDENTIAL_RECHECK_SECONDS: 300 },
      atsRegistry,
    );
  };
  const store = (service: CredentialsService, connectorId: string, baseUrl: string, expiresInMs?: number) =>
    service.store({
      connectorId,
      accountId: `acct-${connectorId}`,
      atsType: 'ats-a',
      baseUrl,
      clientId: CLIENT.clientId,
      secret: CLIENT.clientSecret,
      ...(expiresInMs
        ? {
            access: {
              value: { accessToken: `stored-${connectorId}`, accessTokenExpiresAt: '' },
              expiresAt: new Date(Date.now() + expiresInMs),
            },
          }
        : {}),
    });
  const tokenCalls = (sandbox: RunningAtsASandbox) => sandbox.state.callCounts().byEndpoint[TOKEN_CALL] ?? 0;

  beforeAll(async () => {
    database = await createTestDatabase('gateway_renewals');
    dataSource = await migratedDataSource(
      database.url,
      { service: SERVICE_NAME, ...AUTH_GATEWAY_SCHEMA },
      // Two connections: a renewal that held one across the ATS call would starve everyone else.
      { extra: { max: 2, connectionTimeoutMillis: 5_000 } },
    );
    repository = new CredentialsRepository(dataSource);
    // One customer's ATS answers its token call after 2 s; another's at once.
    slow = await startAtsASandbox({ clients: [CLIENT], seed: { vacancies: 1 }, latencyMs: 2_000 });
    fast = await startAtsASandbox({ clients: [CLIENT], seed: { vacancies: 1 } });
  }, 60_000);

  afterAll(async () => {
    await slow?.close();
    await fast?.close();
    await dataSource?.destroy();
    await database?.drop();
  });

  it('renews once for many requests in two processes, and serves others on a pool of two meanwhile', async () => {
    const [one, two] = [gatewayProcess(), gatewayProcess()];
    await store(one, 'slow', slow.url);
    await store(one, 'fast-1', fast.url);
    await store(one, 'fast-2', fast.url);

    let slowAnswered = false;
    const asks = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? one : two).getAccess('slow'));
    const all = Promise.all(asks).finally(() => (slowAnswered = true));
    await eventually(() => tokenCalls(slow) === 1, 5_000, "the slow ATS's token call to start");

    // While that token call hangs, other connectors' renewals go through both processes.
    await expect(one.getAccess('fast-1')).resolves.toMatchObject({ baseUrl: fast.url });
    await expect(two.getAccess('fast-2')).resolves.toMatchObject({ baseUrl: fast.url });
    expect({ slowAnsweredBeforeOthers: slowAnswered }).toEqual({ slowAnsweredBeforeOthers: false });

    const tokens = new Set((await all).map((access) => (access.type === 'ats-a' ? access.accessToken : '')));
    expect(tokens.size).toBe(1);
    expect(tokenCalls(slow)).toBe(1);
  }, 30_000);

  it('renews access in use ahead of its end, once per connector across two processes', async () => {
    const [one, two] = [gatewayProcess(), gatewayProcess()];
    // Both good for 3 more minutes; a worker got one of them (in use), nobody asked for the other.
    await store(one, 'in-use', fast.url, 180_000);
    await store(one, 'idle', fast.url, 180_000);
    await expect(two.getAccess('in-use')).resolves.toMatchObject({ accessToken: 'stored-in-use' });
    // Their time to be renewed ahead has come.
    await dataSource.query(
      `UPDATE connector_credential SET renew_at = now() - interval '1 second'
        WHERE connector_id IN ('in-use', 'idle')`,
    );
    const before = tokenCalls(fast);

    const config = { RENEW_AHEAD_BATCH: 100, RENEWALS_MAX: 8 };
    const jobs = [
      new CredentialRenewalJob(repository, one, config),
      new CredentialRenewalJob(repository, two, config),
    ];
    const renewed = await Promise.all(jobs.map((job) => job.runOnce()));

    expect(renewed.reduce((a, b) => a + b, 0)).toBe(1);
    expect(tokenCalls(fast) - before).toBe(1);
    const row = await repository.find('in-use');
    expect(row?.accessExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 180_000);
    // The worker's next request finds the renewed access: no renewal, no wait.
    const access = await one.getAccess('in-use');
    expect(access).not.toMatchObject({ accessToken: 'stored-in-use' });
    expect(tokenCalls(fast) - before).toBe(1);
    // The idle connector's access was left to run out.
    await expect(two.getAccess('idle')).resolves.toMatchObject({ accessToken: 'stored-idle' });
  }, 30_000);
});
