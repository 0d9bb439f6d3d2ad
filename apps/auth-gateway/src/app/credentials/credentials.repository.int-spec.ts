import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '@connector/persistence';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { AUTH_GATEWAY_SCHEMA } from '../auth-gateway.schema';
import { OAuthStateEntity } from '../oauth/oauth-state.entity';
import { ConnectorCredentialEntity } from './connector-credential.entity';
import { SecretBox } from '../crypto/secret-box';
import { CredentialsRepository, MarkerLostError } from './credentials.repository';
import { ResealService } from './reseal.service';

describe(CredentialsRepository.name, () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let sut: CredentialsRepository;
  const sealed = (data: string) => ({ v: 1 as const, kid: 'k1', iv: 'iv', tag: 'tag', data });

  beforeAll(async () => {
    database = await createTestDatabase('gateway_repository');
    // As the service opens it (its own migrations table), so `npm run reseal` below finds the schema done.
    dataSource = await new DataSource(
      dataSourceOptions({
        url: database.url,
        service: 'auth-gateway',
        entities: [ConnectorCredentialEntity, OAuthStateEntity],
        migrations: AUTH_GATEWAY_SCHEMA.migrations,
      }),
    ).initialize();
    await runMigrations(dataSource);
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

  describe('re-sealing under the newest key', () => {
    const k1 = `k1:${randomBytes(32).toString('base64')}`;
    const k2 = `k2:${randomBytes(32).toString('base64')}`;
    const seed = async (box: SecretBox, ids: string[]) => {
      await dataSource.query('DELETE FROM connector_credential');
      for (const id of ids) {
        await sut.save({
          connectorId: id,
          accountId: 'acct',
          atsType: 'ats-b',
          state: 'active',
          secret: box.seal(`refresh-${id}`, id),
          access: box.seal(`{"accessToken":"at-${id}"}`, id),
        });
      }
    };
    const openedWithOnly = async (keys: string) => {
      const box = SecretBox.fromEnv(keys);
      const rows = await dataSource
        .getRepository(ConnectorCredentialEntity)
        .find({ order: { connectorId: 'ASC' } });
      return rows.map((row) => box.open(row.secret!, row.connectorId));
    };

    it('leaves nothing under the old key, in pages, and the secrets open with the new key alone', async () => {
      const ids = Array.from({ length: 5 }, (_, i) => `c${i}`);
      await seed(SecretBox.fromEnv(k1), ids);
      const report = await new ResealService(sut, SecretBox.fromEnv(`${k2},${k1}`)).resealAll(2);
      expect(report).toEqual({ credentials: 5, resealed: 5, keyIdsInUse: ['k2'] });
      expect(await openedWithOnly(k2)).toEqual(ids.map((id) => `refresh-${id}`));
      // A second run finds nothing to do.
      expect(await new ResealService(sut, SecretBox.fromEnv(`${k2},${k1}`)).resealAll()).toMatchObject({
        resealed: 0,
      });
    });

    it('is what `npm run reseal` does', async () => {
      await seed(SecretBox.fromEnv(k1), ['a', 'b']);
      const run = spawnSync(
        process.execPath,
        ['-r', '@swc-node/register', 'apps/auth-gateway/src/main.ts', '--reseal'],
        {
          env: {
            ...process.env,
            DATABASE_URL: database.url,
            ENCRYPTION_KEYS: `${k2},${k1}`,
            LOG_LEVEL: 'warn',
          },
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
      expect(JSON.parse(run.stdout.trim().split('\n').pop()!)).toEqual({
        credentials: 2,
        resealed: 2,
        keyIdsInUse: ['k2'],
      });
      expect(await openedWithOnly(k2)).toEqual(['refresh-a', 'refresh-b']);
    }, 70_000);
  });
});
