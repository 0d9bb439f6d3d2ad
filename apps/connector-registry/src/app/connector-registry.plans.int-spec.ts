import { purge } from '@connector/persistence';
import { fleetQueryPlans } from '@connector/persistence/testing';
import { createTestDatabase } from '@connector/testing';
import { SERVICE_NAME } from './connector-registry.config';
import { CONNECTOR_REGISTRY_SCHEMA } from './connector-registry.schema';
import { ConnectorRepository } from './repositories/connector.repository';
import { RunRepository } from './repositories/run.repository';
import { registryRetention } from './retention/registry-retention';
import { RunEntity } from './runs/run.entity';

const CONNECTORS = 10_000;
const RUNS_PER_CONNECTOR = 30;
const uuidOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * The registry's run history at fleet size: 10 000 connectors with 30 runs each in a migrated schema; the
 * runs list, the connectors list's last runs and the retention job reach `run` through its indexes (EXPLAIN).
 * Statements are recorded as the repositories build them; record more below.
 */
describe('connector-registry query plans at fleet size', () => {
  const plans = fleetQueryPlans({
    database: () => createTestDatabase('registry_plans'),
    schema: { service: SERVICE_NAME, ...CONNECTOR_REGISTRY_SCHEMA },
    bigTables: ['run', 'connector'],
    fill: [
      {
        sql: `INSERT INTO connector (id, account_id, type, name, status, deleted_at)
       SELECT ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'acct-' || (n % 2500), 'ats-a',
              'c' || n, 'connected', CASE WHEN n % 100 = 0 THEN now() - interval '3 days' END
         FROM generate_series(1, $1::int) n`,
        params: [CONNECTORS],
      },
      {
        sql: `INSERT INTO run (id, connector_id, account_id, status, mode, counts, queued_at, started_at, finished_at)
       SELECT gen_random_uuid(), ('00000000-0000-4000-8000-' || lpad(c::text, 12, '0'))::uuid, 'acct-' || (c % 2500),
              CASE WHEN k = $2::int AND c % 10 = 0 THEN 'running' ELSE 'succeeded' END, 'incremental', '{}',
              now() - make_interval(mins => ($2::int - k) * 15), now() - make_interval(mins => ($2::int - k) * 15),
              now() - make_interval(mins => ($2::int - k) * 15 - 1)
         FROM generate_series(1, $1::int) c, generate_series(1, $2::int) k`,
        params: [CONNECTORS, RUNS_PER_CONNECTOR],
      },
    ],
    statements: async ({ db, record }) => {
      const runs = new RunRepository(db);
      const connectors = new ConnectorRepository(db);
      const connector = uuidOf(4242);
      await record("a connector's runs list", () => runs.list(connector, 20));
      await record('one run', () => runs.find(connector, uuidOf(1)));
      await record("the connectors list's last runs", () =>
        runs.latest([1, 2, 3, 4, 5].map((n) => uuidOf(n * 2500))),
      );
      await record("an account's connectors", () => connectors.listByAccount('acct-42'));
      await record("an account's live connectors counted (its limit)", () => connectors.countLive('acct-42'));
      // Connector 4241 has no run going: the account's runs are counted (its limit), then the run is inserted.
      await record('a run asked for, under the limits', () =>
        runs.insertQueued(
          Object.assign(new RunEntity(), {
            id: '10000000-0000-4000-8000-000000000001',
            connectorId: uuidOf(4241),
            accountId: `acct-${4241 % 2500}`,
            status: 'queued',
            mode: 'incremental',
            counts: { fetched: 0, upserted: 0, unchanged: 0, closed: 0 },
            apiCalls: 0,
            errors: [],
            warnings: [],
            queuedAt: new Date(),
            startedAt: null,
            finishedAt: null,
          }),
          4,
        ),
      );
      for (const rule of registryRetention({
        DEAD_LETTER_RETENTION_DAYS: 30,
        DELETED_CONNECTOR_RETENTION_DAYS: 30,
        RUN_HISTORY_DAYS: 30,
        RUN_HISTORY_PER_CONNECTOR: 500,
      })) {
        await record(`retention: ${rule.name}`, () => purge(db, rule, new Date()));
      }
    },
  });

  it('reaches run and connector through their indexes only', async () => {
    expect(plans.statements.length).toBeGreaterThan(10);
    expect(await plans.wholeTableScans()).toEqual([]);
  });
});
