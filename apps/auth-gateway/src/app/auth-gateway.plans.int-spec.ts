import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '@connector/persistence';
import {
  createTestDatabase,
  type PlannedStatement,
  StatementRecorder,
  type TestDatabase,
  wholeTableScans,
} from '@connector/testing';
import { SERVICE_NAME } from './auth-gateway.config';
import { AUTH_GATEWAY_SCHEMA } from './auth-gateway.schema';
import { CredentialsRepository } from './credentials/credentials.repository';

const CONNECTORS = 10_000;

/**
 * auth-gateway at fleet size: 10 000 connectors' credentials (a few refused) in a migrated schema; what a
 * credential request reads and what the re-check job's tick reads reach them through an index (EXPLAIN):
 * the gateway's work per connector does not grow with the fleet.
 */
describe('auth-gateway query plans at fleet size', () => {
  let database: TestDatabase;
  let db: DataSource;
  let session: Client;
  const recorder = new StatementRecorder();
  const statements: PlannedStatement[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('gateway_plans');
    db = await new DataSource({
      ...dataSourceOptions({ url: database.url, service: SERVICE_NAME, ...AUTH_GATEWAY_SCHEMA }),
      logger: recorder,
    }).initialize();
    await runMigrations(db, AUTH_GATEWAY_SCHEMA.shared);
    await db.query(
      `INSERT INTO connector_credential (connector_id, account_id, ats_type, state, secret, recheck_at, access_expires_at)
       SELECT 'c-' || n, 'acct-' || (n % 2500), CASE WHEN n % 3 = 0 THEN 'ats-b' ELSE 'ats-a' END,
              CASE WHEN n % 50 = 0 THEN 'rejected' ELSE 'active' END, '{"v":1}'::jsonb,
              CASE WHEN n % 50 = 0 THEN now() + make_interval(secs => n % 600) END,
              now() + make_interval(secs => n % 600)
         FROM generate_series(1, $1::int) n`,
      [CONNECTORS],
    );
    await db.query(`ANALYZE`);
    const credentials = new CredentialsRepository(db);
    const record = async (name: string, work: () => Promise<unknown>) =>
      statements.push(...(await recorder.during(name, work)));
    await record("a connector's credentials (every request)", () => credentials.find('c-4242'));
    await record('the re-check tick: refused secrets now due', () => credentials.dueForRecheck());
    await record('a renewal under the lock', () =>
      credentials.withConnectorLock('c-4242', async (locked) => {
        await locked.find();
        await locked.update({ accessExpiresAt: new Date() });
      }),
    );
    session = new Client({ connectionString: database.url });
    await session.connect();
  }, 60_000);

  afterAll(async () => {
    await session?.end();
    await db?.destroy();
    await database?.drop();
  });

  it('reaches connector_credential through its indexes only', async () => {
    expect(statements.length).toBeGreaterThanOrEqual(4);
    expect(await wholeTableScans(session, statements, ['connector_credential'])).toEqual([]);
  });
});
