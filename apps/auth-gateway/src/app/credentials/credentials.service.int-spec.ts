import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AtsError } from '@connector/ats-http';
import { type OutboxRelay } from '@connector/persistence';
import { migratedDataSource } from '@connector/persistence/testing';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { SERVICE_NAME } from '../auth-gateway.config';
import { AUTH_GATEWAY_SCHEMA } from '../auth-gateway.schema';
import { credentialBinding } from '../crypto/seal-binding';
import { SecretBox } from '../crypto/secret-box';
import type { CredentialIssuer } from '@connector/ats-core';
import { atsRegistry } from '@connector/ats-registry';
import { CredentialsRepository } from './credentials.repository';
import { CredentialsService } from './credentials.service';
import { OperatorAlerts } from './operator-alerts';

describe(`${CredentialsService.name} on Postgres`, () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const secrets = SecretBox.fromEnv(`k1:${randomBytes(32).toString('base64')}`);

  beforeAll(async () => {
    database = await createTestDatabase('gateway_credentials');
    dataSource = await migratedDataSource(database.url, { service: SERVICE_NAME, ...AUTH_GATEWAY_SCHEMA });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('never overwrites credentials saved while a renewal of the old ones was in flight', async () => {
    const repository = new CredentialsRepository(dataSource);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const renewing = new Promise<void>((resolve) => (started = resolve));
    const issuer: CredentialIssuer = {
      atsType: 'ats-a',
      renew: async () => {
        started();
        await gate;
        // The old (revoked) secret is refused.
        throw new AtsError('ATS-A refused', { kind: 'auth', endpoint: 'POST /api/token', status: 401 });
      },
      revalidate: async () => undefined,
      toAtsAccess: (input, access, expiresAt) => ({
        type: 'ats-a',
        baseUrl: input.baseUrl ?? '',
        accessToken: access.accessToken,
        expiresAt: expiresAt.toISOString(),
      }),
      fingerprintOf: (access) => access.accessToken,
    };
    const sut = new CredentialsService(
      repository,
      secrets,
      [issuer],
      { wake: () => undefined } as unknown as OutboxRelay,
      new OperatorAlerts(),
      { CREDENTIAL_RECHECK_SECONDS: 300 },
      atsRegistry,
    );
    const base = {
      connectorId: 'c1',
      accountId: 'acct',
      atsType: 'ats-a' as const,
      baseUrl: 'https://a.example',
    };
    await sut.store({ ...base, clientId: 'id', secret: 'OLD-secret' });
    const worker = sut.getAccess('c1');
    await renewing;
    // An admin saves a new, verified key while the renewal of the old one is in flight.
    const expiresAt = new Date(Date.now() + 3_000_000);
    await sut.store({
      ...base,
      clientId: 'id2',
      secret: 'NEW-secret',
      access: {
        value: { accessToken: 'new-token', accessTokenExpiresAt: expiresAt.toISOString() },
        expiresAt,
      },
    });
    release();
    // The worker gets the new access, not the old secret's refusal.
    await expect(worker).resolves.toMatchObject({ accessToken: 'new-token' });
    const row = await repository.find('c1');
    expect(row).toMatchObject({ state: 'active', clientId: 'id2', recheckAt: null });
    expect(secrets.open(row!.secret!, credentialBinding(row!, 'secret'))).toBe('NEW-secret');
    expect(await dataSource.query('SELECT * FROM outbox_message')).toEqual([]);
    await expect(sut.getAccess('c1')).resolves.toMatchObject({ accessToken: 'new-token' });
  });

  it('renews once per connector however many ask, in two processes, and one connector never waits for another', async () => {
    const repository = new CredentialsRepository(dataSource);
    const gates = new Map<string, () => void>();
    const renewals: string[] = [];
    let started!: () => void;
    const slowStarted = new Promise<void>((resolve) => (started = resolve));
    const issuer: CredentialIssuer = {
      atsType: 'ats-a',
      renew: async (input) => {
        renewals.push(input.connectorId);
        if (input.connectorId === 'slow') {
          started();
          // The slow customer's ATS answers only when the test says.
          await new Promise<void>((resolve) => gates.set('slow', resolve));
        }
        const expiresAt = new Date(Date.now() + 3_600_000);
        return {
          access: {
            accessToken: `token-${input.connectorId}`,
            accessTokenExpiresAt: expiresAt.toISOString(),
          },
          expiresAt,
        };
      },
      revalidate: async () => undefined,
      toAtsAccess: (input, access, expiresAt) => ({
        type: 'ats-a',
        baseUrl: input.baseUrl ?? '',
        accessToken: access.accessToken,
        expiresAt: expiresAt.toISOString(),
      }),
      fingerprintOf: (access) => access.accessToken,
    };
    // Two gateway processes: each its own service (its own in-process single flight), one database.
    const [one, two] = [0, 1].map(
      () =>
        new CredentialsService(
          repository,
          secrets,
          [issuer],
          { wake: () => undefined } as unknown as OutboxRelay,
          new OperatorAlerts(),
          { CREDENTIAL_RECHECK_SECONDS: 300 },
          atsRegistry,
        ),
    );
    for (const connectorId of ['slow', 'fast']) {
      await one.store({
        connectorId,
        accountId: 'acct',
        atsType: 'ats-a',
        baseUrl: 'https://a.example',
        clientId: 'id',
        secret: 'secret',
      });
    }

    // Three workers of one process and one of the other ask for the slow connector's access at once.
    const slow = [one.getAccess('slow'), one.getAccess('slow'), one.getAccess('slow'), two.getAccess('slow')];
    await slowStarted;
    // Meanwhile another connector is served by both processes: no lock shared with the slow one.
    await expect(one.getAccess('fast')).resolves.toMatchObject({ accessToken: 'token-fast' });
    await expect(two.getAccess('fast')).resolves.toMatchObject({ accessToken: 'token-fast' });
    gates.get('slow')!();
    for (const access of await Promise.all(slow)) expect(access).toMatchObject({ accessToken: 'token-slow' });
    expect(renewals.sort()).toEqual(['fast', 'slow']);
  });
});
