import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { linkStatements } from '@connector/exactly-once';
import { dataSourceOptions, deletedConnectorRetention, purge, runMigrations } from '@connector/persistence';
import {
  createTestDatabase,
  type PlannedStatement,
  plannedStatements,
  StatementRecorder,
  type TestDatabase,
  wholeTableScans,
} from '@connector/testing';
import { CandidateRefRepository } from './candidate-refs/candidate-ref.repository';
import { FIND_CANDIDATE_REF } from './candidate-refs/candidate-ref.sql';
import { DocumentLinkRepository } from './documents/document-link.repository';
import { DOCUMENT_LINKS } from './documents/document-link.sql';
import { SERVICE_NAME } from './document-service.config';
import { DOCUMENT_SERVICE_SCHEMA } from './document-service.schema';

const CONNECTORS = 10_000;
const CANDIDATES_PER_CONNECTOR = 20;

/**
 * document-service's tables at fleet size: 10 000 connectors with 20 candidates (a ref and a file each) in a
 * migrated schema; the statements every document runs, the whole link flow among them (prepared: their
 * generic plans too), and erasure's lookups reach them through their indexes (EXPLAIN).
 */
describe('document-service query plans at fleet size', () => {
  let database: TestDatabase;
  let db: DataSource;
  let session: Client;
  const recorder = new StatementRecorder();
  const statements: PlannedStatement[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('documents_plans');
    db = await new DataSource({
      ...dataSourceOptions({ url: database.url, service: SERVICE_NAME, ...DOCUMENT_SERVICE_SCHEMA }),
      logger: recorder,
    }).initialize();
    await runMigrations(db, DOCUMENT_SERVICE_SCHEMA.shared);
    await db.query(
      `INSERT INTO candidate_ref (connector_id, candidate_id, external_id)
       SELECT 'c-' || c, 'cand-' || (c % 2500) || '-' || k, 'x-' || k
         FROM generate_series(1, $1::int) c, generate_series(1, $2::int) k`,
      [CONNECTORS, CANDIDATES_PER_CONNECTOR],
    );
    await db.query(
      `INSERT INTO document_link (connector_id, candidate_id, sha256, document_id, external_id, state, fence)
       SELECT 'c-' || c, 'cand-' || (c % 2500) || '-' || k, md5(c || '-' || k), 'doc-' || c || '-' || k, 'f-' || k,
              'linked', 1
         FROM generate_series(1, $1::int) c, generate_series(1, $2::int) k`,
      [CONNECTORS, CANDIDATES_PER_CONNECTOR],
    );
    await db.query(`ANALYZE`);

    statements.push(
      {
        name: "a candidate's ATS id",
        sql: FIND_CANDIDATE_REF.sql,
        params: FIND_CANDIDATE_REF.params({ connectorId: 'c-42', candidateId: 'cand-42-7' }),
        prepared: true,
      },
      ...plannedStatements(
        'file',
        { ...linkStatements(DOCUMENT_LINKS) },
        {
          leaseNamespace: 'document-service',
          leaseKey: 'c-42:cand-42-7',
          leaseOwner: 'plan-check',
          leaseTtlSeconds: 30,
          releaseNamespace: 'document-service',
          releaseKey: 'c-42:cand-42-7',
          releaseOwner: 'plan-check',
          connectorId: 'c-42',
          candidateId: 'cand-42-7',
          sha256: 'a'.repeat(64),
          accountId: 'acct-42',
          documentId: 'doc-1',
          externalId: 'f-1',
          fence: 2,
        },
      ),
    );
    const refs = new CandidateRefRepository(db);
    const links = new DocumentLinkRepository(db);
    const record = async (name: string, work: () => Promise<unknown>) =>
      statements.push(...(await recorder.during(name, work)));
    await record("erasure: a candidate's connectors (refs)", () => refs.connectorsOf('cand-42-7'));
    await record("erasure: a candidate's connectors (files)", () => links.connectorsOf('cand-42-7'));
    await record("erasure: a candidate's ref", () => refs.erase('c-42', 'cand-42-7'));
    await record("erasure: a candidate's files", () => links.erase('c-42', 'cand-42-7'));
    await record("a candidate's ATS id announced", () => refs.record('c-42', 'cand-42-8', 'x-9'));
    for (const table of ['candidate_ref', 'document_link']) {
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

  it('reaches candidate_ref and document_link through their indexes only', async () => {
    expect(statements.length).toBeGreaterThanOrEqual(10);
    expect(await wholeTableScans(session, statements, ['candidate_ref', 'document_link'])).toEqual([]);
  });
});
