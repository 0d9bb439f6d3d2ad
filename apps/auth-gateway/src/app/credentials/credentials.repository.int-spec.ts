import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { migratedDataSource } from '@connector/persistence/testing';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { AUTH_GATEWAY_SCHEMA } from '../auth-gateway.schema';
import { OAuthStateEntity } from '../oauth/oauth-state.entity';
import { ConnectorCredentialEntity } from './connector-credential.entity';
import { credentialBinding } from '../crypto/seal-binding';
import { SecretBox } from '../crypto/secret-box';
import { CredentialsReplacedError, CredentialsRepository, MarkerLostError } from './credentials.repository';
import { ResealService } from './reseal.service';

describe(CredentialsRepository.name, () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let sut: CredentialsRepository;
  const sealed = (data: string) => ({ v: 1 as const, kid: 'k1', iv: 'iv', tag: 'tag', data });

  beforeAll(async () => {
    database = await createTestDatabase('gateway_repository');
    // As the service opens it (its own migrations table), so `npm run reseal` below finds the schema done.
    dataSource = await migratedDataSource(database.url, {
      service: 'auth-gateway',
      entities: [ConnectorCredentialEntity, OAuthStateEntity],
      migrations: AUTH_GATEWAY_SCHEMA.migrations,
    });
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

  it('leases a renewal without holding a connection: another is refused until it ends or runs out', async () => {
    const outcome = await sut.withRenewalLease(
      'c1',
      async (leased) => {
        await leased.find();
        // Nothing of ours is held on the pool meanwhile: the other claim runs on a free connection.
        await expect(sut.withRenewalLease('c1', async () => 'theirs', 60_000)).resolves.toEqual({
          leased: false,
        });
        await leased.update({ state: 'authorization_required' });
        return 'mine';
      },
      60_000,
    );
    expect(outcome).toEqual({ leased: true, value: 'mine' });
    expect(await sut.find('c1')).toMatchObject({ state: 'authorization_required', leaseOwner: null });
    // Given back at the end: the next renewal takes it at once.
    await expect(sut.withRenewalLease('c1', async () => 'next', 60_000)).resolves.toEqual({
      leased: true,
      value: 'next',
    });
  });

  it('lets another take over a lease that ran out, and the first then writes nothing', async () => {
    await sut.withRenewalLease(
      'c1',
      async (leased) => {
        await leased.find();
        await dataSource.query(`UPDATE connector_credential SET lease_until = now() - interval '1 second'`);
        let second: Promise<unknown> | undefined;
        await sut.withRenewalLease(
          'c1',
          async (taken) => {
            await taken.find();
            second = leased.update({ state: 'authorization_required' });
            await expect(second).rejects.toBeInstanceOf(CredentialsReplacedError);
          },
          60_000,
        );
        expect(second).toBeDefined();
      },
      60_000,
    );
    expect((await sut.find('c1'))?.state).toBe('active');
  });

  it('stores a rotated secret by its marker even after the lease ran out', async () => {
    await sut.withRenewalLease(
      'c1',
      async (leased) => {
        await leased.find();
        await leased.update({ refreshMarker: 'm1', refreshStartedAt: new Date() });
        await dataSource.query(`UPDATE connector_credential SET lease_owner = 'someone-else'`);
        await leased.saveRotation({ secret: sealed('new'), refreshMarker: null }, 'm1');
      },
      60_000,
    );
    expect(await sut.find('c1')).toMatchObject({ secret: sealed('new'), refreshMarker: null });
  });

  it('does not overwrite a refresh another process started since', async () => {
    await sut.withRenewalLease(
      'c1',
      async (leased) => {
        await leased.find();
        await leased.update({ refreshMarker: 'm1' });
        await dataSource.query(`UPDATE connector_credential SET refresh_marker = 'm2'`);
        await expect(leased.saveRotation({ secret: sealed('new') }, 'm1')).rejects.toBeInstanceOf(
          MarkerLostError,
        );
      },
      60_000,
    );
    expect(await sut.find('c1')).toMatchObject({ secret: sealed('old'), refreshMarker: 'm2' });
  });

  describe('re-sealing under the newest key', () => {
    const k1 = `k1:${randomBytes(32).toString('base64')}`;
    const k2 = `k2:${randomBytes(32).toString('base64')}`;
    const owner = (connectorId: string) => ({ connectorId, atsType: 'ats-b', baseUrl: null, clientId: null });
    const seed = async (box: SecretBox, ids: string[]) => {
      await dataSource.query('DELETE FROM connector_credential');
      for (const id of ids) {
        await sut.save({
          ...owner(id),
          accountId: 'acct',
          state: 'active',
          secret: box.seal(`refresh-${id}`, credentialBinding(owner(id), 'secret')),
          access: box.seal(`{"accessToken":"at-${id}"}`, credentialBinding(owner(id), 'access')),
        });
      }
    };
    const openedWithOnly = async (keys: string) => {
      const box = SecretBox.fromEnv(keys);
      const rows = await dataSource
        .getRepository(ConnectorCredentialEntity)
        .find({ order: { connectorId: 'ASC' } });
      return rows.map((row) => box.open(row.secret!, credentialBinding(row, 'secret')));
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
      // Its report is one line of stdout; a log line (JSON too, e.g. the broker's) may come after it.
      const lines = run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.find((line) => 'keyIdsInUse' in line)).toEqual({
        credentials: 2,
        resealed: 2,
        keyIdsInUse: ['k2'],
      });
      expect(await openedWithOnly(k2)).toEqual(['refresh-a', 'refresh-b']);
    }, 70_000);
  });
});
