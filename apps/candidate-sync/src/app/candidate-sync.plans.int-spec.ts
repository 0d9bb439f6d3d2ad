import { orderedLinkStatements } from '@connector/exactly-once';
import { deletedConnectorRetention, purge } from '@connector/persistence';
import { fleetQueryPlans, plannedStatements } from '@connector/persistence/testing';
import { createTestDatabase } from '@connector/testing';
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
  const plans = fleetQueryPlans({
    database: () => createTestDatabase('links_plans'),
    schema: { service: SERVICE_NAME, ...CANDIDATE_SYNC_SCHEMA },
    bigTables: ['candidate_link', 'application_link'],
    fill: [
      {
        sql: `INSERT INTO candidate_link (connector_id, candidate_id, account_id, external_id, state, fence)
       SELECT 'c-' || c, 'cand-' || (c % 2500) || '-' || k, 'acct-' || (c % 2500), 'x-' || k, 'linked', 1
         FROM generate_series(1, $1::int) c, generate_series(1, $2::int) k`,
        params: [CONNECTORS, CANDIDATES_PER_CONNECTOR],
      },
      {
        sql: `INSERT INTO application_link (connector_id, candidate_id, vacancy_external_id, application_id, external_id, state, fence)
       SELECT 'c-' || c, 'cand-' || (c % 2500) || '-' || k, 'v-' || k, 'app-' || c || '-' || k, 'y-' || k, 'linked', 1
         FROM generate_series(1, $1::int) c, generate_series(1, $2::int) k`,
        params: [CONNECTORS, CANDIDATES_PER_CONNECTOR],
      },
    ],
    statements: async ({ db, record, add }) => {
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
      add(
        ...plannedStatements('candidate', { ...orderedLinkStatements(CANDIDATE_LINKS) }, values),
        ...plannedStatements('application', { ...orderedLinkStatements(APPLICATION_LINKS) }, values),
      );
      const candidates = new CandidateLinkRepository(db);
      const applications = new ApplicationLinkRepository(db);
      await record("erasure: a candidate's connectors", () =>
        candidates.connectorsOf('acct-42', 'cand-42-7'),
      );
      await record("erasure: a candidate's link", () => candidates.erase('c-42', 'cand-42-7', 3));
      await record("erasure: a candidate's applications", () => applications.erase('c-42', 'cand-42-7', 3));
      await record("a link's read", () => candidates.find({ connectorId: 'c-42', candidateId: 'cand-42-7' }));
      for (const table of ['candidate_link', 'application_link']) {
        await record(`retention: ${table}`, () =>
          purge(db, deletedConnectorRetention(table, 30), new Date()),
        );
      }
    },
  });

  it('reaches candidate_link and application_link through their indexes only', async () => {
    expect(plans.statements.length).toBeGreaterThanOrEqual(10);
    expect(await plans.wholeTableScans()).toEqual([]);
  });
});
