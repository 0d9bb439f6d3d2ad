import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { AuthGatewayTables1763700000100 } from '../migrations/1763700000100-auth-gateway-tables';
import { CredentialRefreshMarker1763700000110 } from '../migrations/1763700000110-credential-refresh-marker';
import { OAuthStateEntity } from '../oauth/oauth-state.entity';
import { ConnectorCredentialEntity } from './connector-credential.entity';
import { CredentialsRepository, MarkerLostError } from './credentials.repository';

describe(CredentialsRepository.name, () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let sut: CredentialsRepository;
  const sealed = (data: string) => ({ v: 1 as const, kid: 'k1', iv: 'iv', tag: 'tag', data });

  beforeAll(async () => {
    database = await createTestDatabase('gateway_repository');
    dataSource = await new DataSource({
      type: 'postgres',
      url: database.url,
      entities: [ConnectorCredentialEntity, OAuthStateEntity],
      migrations: [AuthGatewayTables1763700000100, CredentialRefreshMarker1763700000110],
      migrationsRun: true,
    }).initialize();
    sut = new CredentialsRepository(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  beforeEach(async () => {
    await dataSource.query('DELETE FROM connector_credential');
    await sut.save({
      connectorId: 'c1',
      accountId: 'acct',
      atsType: 'ats-b',
      state: 'active',
      baseUrl: null,
      clientId: null,
      secret: sealed('old'),
      access: null,
      accessExpiresAt: null,
      accessFingerprint: null,
    });
  });

  const killLockConnection = async () => {
    // The backend holding our advisory lock, as a network cut or a Postgres failover would end it.
    await dataSource.query(
      `SELECT pg_terminate_backend(pid) FROM pg_locks
       WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
  };

  it('writes through the connection that holds the lock: when it drops, the write fails and the lock is free', async () => {
    const outcome = sut.withConnectorLock('c1', async (locked) => {
      await killLockConnection();
      await locked.update({ state: 'authorization_required' });
    });
    await expect(outcome).rejects.toThrow();
    expect((await sut.find('c1'))?.state).toBe('active');
    // Another process gets the lock at once.
    await expect(sut.withConnectorLock('c1', async () => 'mine', 500)).resolves.toBe('mine');
  });

  it('retries the save of a rotated secret on a fresh connection when the lock’s connection dropped', async () => {
    await sut.withConnectorLock('c1', async (locked) => {
      await locked.update({ refreshMarker: 'm1', refreshStartedAt: new Date() });
      await killLockConnection();
      await locked.saveRotation({ secret: sealed('new'), refreshMarker: null }, 'm1');
    });
    expect(await sut.find('c1')).toMatchObject({ secret: sealed('new'), refreshMarker: null });
  });

  it('does not overwrite a refresh another process started since', async () => {
    await sut.withConnectorLock('c1', async (locked) => {
      await locked.update({ refreshMarker: 'm1' });
      await dataSource.query(`UPDATE connector_credential SET refresh_marker = 'm2'`);
      await expect(locked.saveRotation({ secret: sealed('new') }, 'm1')).rejects.toBeInstanceOf(
        MarkerLostError,
      );
    });
    expect(await sut.find('c1')).toMatchObject({ secret: sealed('old'), refreshMarker: 'm2' });
  });
});
