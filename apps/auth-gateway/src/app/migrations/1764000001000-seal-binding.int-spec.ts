import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { DataSource, type MigrationInterface } from 'typeorm';
import type { CredentialIssuer } from '@connector/ats-core';
import { dataSourceOptions, type OutboxRelay } from '@connector/persistence';
import { migratedDataSource } from '@connector/persistence/testing';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { atsRegistry } from '@connector/ats-registry';
import { SERVICE_NAME } from '../auth-gateway.config';
import { AUTH_GATEWAY_SCHEMA, authGatewayMigrations } from '../auth-gateway.schema';
import { CredentialsRepository } from '../credentials/credentials.repository';
import { CredentialsService } from '../credentials/credentials.service';
import { OperatorAlert, OperatorAlerts } from '../credentials/operator-alerts';
import { sealInFormat1 } from '../crypto/format-1.testing';
import { credentialBinding } from '../crypto/seal-binding';
import { type SealedSecret, SecretBox } from '../crypto/secret-box';

/** Migration 1764000001000 on a database holding secrets of the old format (the connector id alone). */
describe('SealBinding1764000001000', () => {
  let database: TestDatabase;
  const key = { id: 'k1', key: randomBytes(32) };
  const keys = `k1:${key.key.toString('base64')}`;
  const secrets = SecretBox.fromEnv(keys);
  const atsA = { connectorId: 'c-a', atsType: 'ats-a', baseUrl: 'https://a.example', clientId: 'client-1' };
  const atsB = { connectorId: 'c-b', atsType: 'ats-b', baseUrl: null, clientId: null };

  /** The gateway's data source with these migrations (its own history), migrated. */
  const migrate = (migrations: Array<new () => MigrationInterface>) =>
    migratedDataSource(database.url, { service: SERVICE_NAME, ...AUTH_GATEWAY_SCHEMA, migrations });

  beforeAll(async () => {
    database = await createTestDatabase('gateway_seal_binding');
    // The schema as it was before this migration, and rows sealed as the gateway sealed them then.
    const all = authGatewayMigrations(keys);
    const before = await migrate(
      all.slice(
        0,
        all.findIndex((m) => m.name === 'SealBinding1764000001000'),
      ),
    );
    try {
      const insert = `INSERT INTO connector_credential
        (connector_id, account_id, ats_type, state, base_url, client_id, secret, access, access_expires_at)
        VALUES ($1, 'acct', $2, 'active', $3, $4, $5, $6, now() - interval '1 hour')`;
      for (const row of [atsA, atsB]) {
        await before.query(insert, [
          row.connectorId,
          row.atsType,
          row.baseUrl,
          row.clientId,
          sealInFormat1(key, `secret-of-${row.connectorId}`, row.connectorId),
          sealInFormat1(key, `{"accessToken":"at-${row.connectorId}"}`, row.connectorId),
        ]);
      }
      await before.query(
        `INSERT INTO oauth_state (state_hash, connector_id, account_id, admin_id, nonce_hash, expires_at, code_verifier)
         VALUES ('hash-1', 'c-b', 'acct', 'admin', 'nonce', now() + interval '10 minutes', $1)`,
        [sealInFormat1(key, 'the-verifier', 'hash-1')],
      );
    } finally {
      await before.destroy();
    }
  }, 60_000);

  afterAll(async () => {
    await database?.drop();
  });

  it('fails without the keys, naming ENCRYPTION_KEYS', async () => {
    await expect(migrate(authGatewayMigrations(''))).rejects.toThrow(
      /2 credentials and 1 login states hold secrets sealed in the old format; run the migration with ENCRYPTION_KEYS set/,
    );
  });

  it('re-seals every old value for its binding; an old-format value written afterwards never opens', async () => {
    // As a deployment runs it (`npm run migrate` runs this for auth-gateway): the service's own ENCRYPTION_KEYS.
    const run = spawnSync(
      process.execPath,
      ['-r', '@swc-node/register', 'apps/auth-gateway/src/main.ts', '--migrate'],
      {
        env: { ...process.env, DATABASE_URL: database.url, ENCRYPTION_KEYS: keys, LOG_LEVEL: 'warn' },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    // Opened as is: what the run left.
    const dataSource = await new DataSource(
      dataSourceOptions({ url: database.url, service: SERVICE_NAME, ...AUTH_GATEWAY_SCHEMA }),
    ).initialize();
    try {
      const rows = (await dataSource.query(
        'SELECT connector_id, secret, access FROM connector_credential ORDER BY connector_id',
      )) as Array<{ connector_id: string; secret: SealedSecret; access: SealedSecret }>;
      expect(rows.map((row) => [row.secret.v, row.access.v])).toEqual([
        [2, 2],
        [2, 2],
      ]);
      for (const row of [atsA, atsB]) {
        const stored = rows.find((each) => each.connector_id === row.connectorId)!;
        expect(secrets.open(stored.secret, credentialBinding(row, 'secret'))).toBe(
          `secret-of-${row.connectorId}`,
        );
        expect(secrets.open(stored.access, credentialBinding(row, 'access'))).toBe(
          `{"accessToken":"at-${row.connectorId}"}`,
        );
      }
      const [state] = (await dataSource.query(`SELECT code_verifier, ats_type FROM oauth_state`)) as Array<{
        code_verifier: SealedSecret;
        ats_type: string;
      }>;
      // The login pending at the upgrade keeps its ATS (1764000009000: the one interactive-login ATS then).
      expect(state!.ats_type).toBe('ats-b');
      expect(
        secrets.open(state!.code_verifier, {
          column: 'code_verifier',
          connectorId: 'c-b',
          stateHash: 'hash-1',
        }),
      ).toBe('the-verifier');

      // Someone writes an old-format value (say from a backup) onto the row: the gateway does not open it.
      await dataSource.query(`UPDATE connector_credential SET secret = $2 WHERE connector_id = $1`, [
        'c-a',
        sealInFormat1(key, 'secret-from-a-backup', 'c-a'),
      ]);
      const renew = jest.fn();
      const issuer: CredentialIssuer = {
        atsType: 'ats-a',
        renew,
        revalidate: async () => undefined,
        toAtsAccess: () => ({ type: 'ats-a', baseUrl: '', accessToken: '', expiresAt: '' }),
        fingerprintOf: (access) => access.accessToken,
      };
      const alerts = new OperatorAlerts();
      const sut = new CredentialsService(
        new CredentialsRepository(dataSource),
        secrets,
        [issuer],
        { wake: () => undefined } as unknown as OutboxRelay,
        alerts,
        { CREDENTIAL_RECHECK_SECONDS: 300 },
        atsRegistry,
      );
      await expect(sut.getAccess('c-a')).rejects.toMatchObject({ code: 'AUTHORIZATION_REQUIRED' });
      expect({ renewedWith: renew.mock.calls.length }).toEqual({ renewedWith: 0 });
      expect(alerts.count(OperatorAlert.SealedSecretMismatch)).toBe(1);
    } finally {
      await dataSource.destroy();
    }
  }, 70_000);
});
