import { linkStatements } from '@connector/exactly-once';
import { deletedConnectorRetention, purge } from '@connector/persistence';
import { fleetQueryPlans, plannedStatements } from '@connector/persistence/testing';
import { createTestDatabase } from '@connector/testing';
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
  const plans = fleetQueryPlans({
    database: () => createTestDatabase('documents_plans'),
    schema: { service: SERVICE_NAME, ...DOCUMENT_SERVICE_SCHEMA },
    bigTables: ['candidate_ref', 'document_link'],
    fill: [
      {
        sql: `INSERT INTO candidate_ref (connector_id, candidate_id, external_id)
       SELECT 'c-' || c, 'cand-' || (c % 2500) || '-' || k, 'x-' || k
         FROM generate_series(1, $1::int) c, generate_series(1, $2::int) k`,
        params: [CONNECTORS, CANDIDATES_PER_CONNECTOR],
      },
      {
        sql: `INSERT INTO document_link (connector_id, candidate_id, sha256, document_id, external_id, state, fence)
       SELECT 'c-' || c, 'cand-' || (c % 2500) || '-' || k, md5(c || '-' || k), 'doc-' || c || '-' || k, 'f-' || k,
              'linked', 1
         FROM generate_series(1, $1::int) c, generate_series(1, $2::int) k`,
        params: [CONNECTORS, CANDIDATES_PER_CONNECTOR],
      },
    ],
    statements: async ({ db, record, add }) => {
      add(
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
      await record("erasure: a candidate's connectors (refs)", () => refs.connectorsOf('cand-42-7'));
      await record("erasure: a candidate's connectors (files)", () => links.connectorsOf('cand-42-7'));
      await record("erasure: a candidate's ref", () => refs.erase('c-42', 'cand-42-7'));
      await record("erasure: a candidate's files", () => links.erase('c-42', 'cand-42-7'));
      await record("a candidate's ATS id announced", () => refs.record('c-42', 'cand-42-8', 'x-9'));
      for (const table of ['candidate_ref', 'document_link']) {
        await record(`retention: ${table}`, () =>
          purge(db, deletedConnectorRetention(table, 30), new Date()),
        );
      }
    },
  });

  it('reaches candidate_ref and document_link through their indexes only', async () => {
    expect(plans.statements.length).toBeGreaterThanOrEqual(10);
    expect(await plans.wholeTableScans()).toEqual([]);
  });
});
