import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions, deletedConnectorRetention, purge, runMigrations } from '@connector/persistence';
import {
  createTestDatabase,
  type PlannedStatement,
  StatementRecorder,
  type TestDatabase,
  wholeTableScans,
} from '@connector/testing';
import {
  APPLICATION_APPLIED_SQL,
  APPLICATION_CLAIM_OR_FIND_SQL,
  ApplicationLinkRepository,
} from './applications/application-link.repository';
import {
  APPLIED_SQL,
  CandidateLinkRepository,
  CLAIM_OR_FIND_SQL,
} from './candidates/candidate-link.repository';
import { SERVICE_NAME } from './candidate-sync.config';
import { CANDIDATE_SYNC_SCHEMA } from './candidate-sync.schema';

const CONNECTORS = 10_000;
const CANDIDATES_PER_CONNECTOR = 20;

/**
 * candidate-sync's links at fleet size: 10 000 connectors with 20 candidates and 20 applications each in a
 * migrated schema; the statements every event runs (prepared: their generic plans too) and erasure's lookups
 * reach the links through their indexes (EXPLAIN).
 */
describe('candidate-sync query plans at fleet size', () => {
  let database: TestDatabase;
  let db: DataSource;
  let session: Client;
  const recorder = new StatementRecorder();
  const statements: PlannedStatement[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('links_plans');
    db = await new DataSource({
      ...dataSourceOptions({ url: database.url, service: SERVICE_NAME, ...CANDIDATE_SYNC_SCHEMA }),
      logger: recorder,
    }).initialize();
    await runMigrations(db, CANDIDATE_SYNC_SCHEMA.shared);
    await db.query(
      `INSERT INTO candidate_link (connector_id, candidate_id, account_id, external_id, state, fence)
       SELECT 'c-' || c, 'cand-' || (c % 2500) || '-' || k, 'acct-' || (c % 2500), 'x-' || k, 'linked', 1
         FROM generate_series(1, $1::int) c, generate_series(1, $2::int) k`,
      [CONNECTORS, CANDIDATES_PER_CONNECTOR],
    );
    await db.query(
      `INSERT INTO application_link (connector_id, candidate_id, vacancy_external_id, application_id, external_id, state, fence)
       SELECT 'c-' || c, 'cand-' || (c % 2500) || '-' || k, 'v-' || k, 'app-' || c || '-' || k, 'y-' || k, 'linked', 1
         FROM generate_series(1, $1::int) c, generate_series(1, $2::int) k`,
      [CONNECTORS, CANDIDATES_PER_CONNECTOR],
    );
    await db.query(`ANALYZE`);

    const lease = ['candidate-sync', 'c-42:cand-42-7', 'plan-check', 30];
    statements.push(
      {
        name: 'candidate claim or find',
        sql: CLAIM_OR_FIND_SQL,
        params: [...lease, 'c-42', 'cand-42-7', 'acct-42', 'event-1'],
        prepared: true,
      },
      {
        name: 'candidate applied',
        sql: APPLIED_SQL,
        params: ['c-42', 'cand-42-7', '{}', 'event-1', new Date().toISOString(), 'hash', 2, null],
        prepared: true,
      },
      {
        name: 'application claim or find',
        sql: APPLICATION_CLAIM_OR_FIND_SQL,
        params: [...lease, 'c-42', 'cand-42-7', 'v-7', 'acct-42', 'app-1', 'event-2'],
        prepared: true,
      },
      {
        name: 'application applied',
        sql: APPLICATION_APPLIED_SQL,
        params: ['c-42', 'cand-42-7', 'v-7', '{}', 'event-2', new Date().toISOString(), 'hash', null, 2],
        prepared: true,
      },
    );
    const candidates = new CandidateLinkRepository(db);
    const applications = new ApplicationLinkRepository(db);
    const record = async (name: string, work: () => Promise<unknown>) =>
      statements.push(...(await recorder.during(name, work)));
    await record("erasure: a candidate's connectors", () => candidates.connectorsOf('acct-42', 'cand-42-7'));
    await record("erasure: a candidate's link", () => candidates.erase('c-42', 'cand-42-7', 3));
    await record("erasure: a candidate's applications", () => applications.erase('c-42', 'cand-42-7', 3));
    await record("a link's read", () => candidates.find('c-42', 'cand-42-7'));
    for (const table of ['candidate_link', 'application_link']) {
      await record(`retention: ${table}`, () => purge(db, deletedConnectorRetention(table, 30), new Date()));
    }
    session = new Client({ connectionString: database.url });
    await session.connect();
  }, 120_000);

  afterAll(async () => {
    await session?.end();
    await db?.destroy();
    await database?.drop();
  });

  it('reaches candidate_link and application_link through their indexes only', async () => {
    expect(statements.length).toBeGreaterThanOrEqual(10);
    expect(await wholeTableScans(session, statements, ['candidate_link', 'application_link'])).toEqual([]);
  });
});
