import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { orderedLinkStatements } from '@connector/exactly-once';
import { dataSourceOptions, deletedConnectorRetention, purge, runMigrations } from '@connector/persistence';
import {
  createTestDatabase,
  type PlannedStatement,
  plannedStatements,
  StatementRecorder,
  type TestDatabase,
  wholeTableScans,
} from '@connector/testing';
import { ApplicationLinkRepository } from './applications/application-link.repository';
import { APPLICATION_LINKS } from './applications/application-link.sql';
import { CandidateLinkRepository } from './candidates/candidate-link.repository';
import { CANDIDATE_LINKS } from './candidates/candidate-link.sql';
import { SERVICE_NAME } from './candidate-sync.config';
import { CANDIDATE_SYNC_SCHEMA } from './candidate-sync.schema';

const CONNECTORS = 10_000;
const CANDIDATES_PER_CONNECTOR = 20;

/**
 * candidate-sync's links at fleet size: 10 000 connectors with 20 candidates and 20 applications each in a
 * migrated schema; every statement of the link flow (prepared: their generic plans too) and erasure's
 * lookups reach the links through their indexes (EXPLAIN).
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

    const values = {
      leaseNamespace: 'candidate-sync',
      leaseKey: 'c-42:cand-42-7',
      leaseOwner: 'plan-check',
      leaseTtlSeconds: 30,
      releaseNamespace: 'candidate-sync',
      releaseKey: 'c-42:cand-42-7',
      releaseOwner: 'plan-check',
      connectorId: 'c-42',
      candidateId: 'cand-42-7',
      vacancyExternalId: 'v-7',
      accountId: 'acct-42',
      applicationId: 'app-1',
      createdEventId: 'event-1',
      eventId: 'event-1',
      occurredAt: new Date().toISOString(),
      contentHash: 'hash',
      sent: '{}',
      externalId: 'x-1',
      createdExternalId: null,
      fence: 2,
    };
    statements.push(
      ...plannedStatements('candidate', { ...orderedLinkStatements(CANDIDATE_LINKS) }, values),
      ...plannedStatements('application', { ...orderedLinkStatements(APPLICATION_LINKS) }, values),
    );
    const candidates = new CandidateLinkRepository(db);
    const applications = new ApplicationLinkRepository(db);
    const record = async (name: string, work: () => Promise<unknown>) =>
      statements.push(...(await recorder.during(name, work)));
    await record("erasure: a candidate's connectors", () => candidates.connectorsOf('acct-42', 'cand-42-7'));
    await record("erasure: a candidate's link", () => candidates.erase('c-42', 'cand-42-7', 3));
    await record("erasure: a candidate's applications", () => applications.erase('c-42', 'cand-42-7', 3));
    await record("a link's read", () => candidates.find({ connectorId: 'c-42', candidateId: 'cand-42-7' }));
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
