import { deletedConnectorRetention, purge } from '@connector/persistence';
import { fleetQueryPlans } from '@connector/persistence/testing';
import { createTestDatabase } from '@connector/testing';
import { runHistoryRetention } from './runs/run-history-retention';
import { SyncRunRepository } from './runs/sync-run.repository';
import { VacancyEventFeedRepository } from './events/vacancy-event-feed.repository';
import { closedVacancyRetention } from './vacancies/closed-vacancy-retention';
import { VacancyStateRepository } from './vacancies/vacancy-state.repository';
import { SERVICE_NAME } from './vacancy-sync.config';
import { VACANCY_SYNC_SCHEMA } from './vacancy-sync.schema';

const CONNECTORS = 10_000;
const VACANCIES = 1_000_000;
const RUNS_PER_CONNECTOR = 30;

/**
 * vacancy-sync's statements at fleet size: 10 000 connectors, 1 M vacancy states, 300 000 runs in a migrated
 * schema, each statement's plan (EXPLAIN, not run) free of a Seq Scan on the big tables. Statements are
 * recorded as the repositories build them. To check another one, record it below.
 */
describe('vacancy-sync query plans at fleet size', () => {
  const connector = 'c-04242';
  const plans = fleetQueryPlans({
    database: () => createTestDatabase('fleet_plans'),
    schema: { service: SERVICE_NAME, ...VACANCY_SYNC_SCHEMA },
    bigTables: ['vacancy_state', 'sync_run', 'sync_connector', 'vacancy_event_feed'],
    fill: [
      {
        sql: `INSERT INTO sync_connector (connector_id, account_id, next_run_at, active, last_success_started_at, system_key)
       SELECT 'c-' || lpad(n::text, 5, '0'), 'acct-' || (n % 2500), now() + make_interval(secs => n % 900),
              n % 50 <> 0, CASE WHEN n % 400 <> 0 THEN now() - interval '15 minutes' END,
              'ats-a:https://system-' || (n % 4000) || '.example'
         FROM generate_series(1, $1::int) n`,
        params: [CONNECTORS],
      },
      // 100 vacancies a connector (in key order: a fast load), a tenth closed, most seen by its last full run.
      {
        sql: `INSERT INTO vacancy_state (connector_id, external_id, content_hash, live, last_seen_run, live_until)
       SELECT 'c-' || lpad(c::text, 5, '0'), 'v-' || lpad(k::text, 3, '0'), 'h-' || k, k % 10 <> 0,
              'run-' || c || CASE WHEN k % 37 = 0 THEN '-old' ELSE '' END,
              CASE WHEN k % 7 = 0 THEN current_date + k END
         FROM generate_series(1, $1::int) c, generate_series(1, $2::int) k`,
        params: [CONNECTORS, VACANCIES / CONNECTORS],
      },
      {
        sql: `INSERT INTO sync_run (run_id, connector_id, account_id, trigger, status, mode, created_at, started_at, finished_at)
       SELECT 'r-' || c || '-' || k, 'c-' || lpad(c::text, 5, '0'), 'acct-' || (c % 2500), 'scheduled',
              CASE WHEN k = $2::int AND c % 10 = 0 THEN 'queued' ELSE 'succeeded' END, 'incremental',
              now() - make_interval(mins => ($2::int - k) * 15), now() - make_interval(mins => ($2::int - k) * 15),
              now() - make_interval(mins => ($2::int - k) * 15 - 1)
         FROM generate_series(1, $1::int) c, generate_series(1, $2::int) k`,
        params: [CONNECTORS, RUNS_PER_CONNECTOR],
      },
      // Every connector on events (as if the whole fleet were ATS-B), read every minute at its own second.
      {
        sql: `INSERT INTO vacancy_event_feed (connector_id, account_id, subscription_id, mode, next_read_at, last_read_at)
       SELECT 'c-' || lpad(n::text, 5, '0'), 'acct-' || (n % 2500), 'vs-c-' || n, 'events',
              now() + make_interval(secs => n % 60), now() - make_interval(secs => 60 - n % 60)
         FROM generate_series(1, $1::int) n`,
        params: [CONNECTORS],
      },
    ],
    statements: async ({ db, record }) => {
      const states = new VacancyStateRepository(db);
      const runs = new SyncRunRepository(db);
      const today = new Date().toISOString().slice(0, 10);
      await record('closures by absence after a full listing', () =>
        states.notSeenBy(connector, 'run-4242', 500),
      );
      await record('closures past their last advertised day', () => states.expired(connector, today, 500));
      await record("a page's published states", () =>
        states.published(connector, ['v-001', 'v-002', 'v-101']),
      );
      const lease = { owner: 'plans', ttlMs: 60_000 };
      const run = `r-4242-${RUNS_PER_CONNECTOR}`;
      await runs.tryLease(connector, lease.owner, lease.ttlMs);
      await record("a run's start", () => runs.start(run, lease.owner, lease.ttlMs, { mode: 'incremental' }));
      await record("a run's step: vacancies seen and closed, progress", () =>
        runs.commitStep(run, lease, {
          seen: [{ externalId: 'v-001', contentHash: 'h-new' }],
          closed: ['v-002'],
          delta: { fetched: 1, closed: 1 },
          cursor: { after: 1 },
        }),
      );
      await record("a run's pause", () =>
        runs.pause(run, lease, { resumeAt: new Date(), attempts: 1, error: 'plans', apiCalls: 0 }),
      );
      await record("a connector's head run", () => runs.headRun(connector));
      const ending = (await runs.run(run))!;
      await record("a run's end", () =>
        runs.finish(
          ending,
          lease,
          'succeeded',
          undefined,
          0,
          { intervalSeconds: 900 },
          async () => undefined,
        ),
      );
      await record('scheduler: due connectors claimed', () =>
        runs.claimDue({ limit: 50, owner: 'plans', ttlMs: 60_000, perSystem: 2, perAccount: 4 }),
      );
      await record('scheduler: runnable connectors', () => runs.runnableConnectors(200));
      await record('scheduler: the due backlog', () => runs.dueCount());
      await record("a connector's status applied", () =>
        runs.applyStatus(connector, 'acct', true, new Date()),
      );
      await record("a connector's system learnt", () =>
        runs.learnSystem(connector, 'ats-a:https://new.example'),
      );
      await record('run history retention', () =>
        purge(db, runHistoryRetention({ RUN_HISTORY_DAYS: 30, RUN_HISTORY_PER_CONNECTOR: 500 }), new Date()),
      );
      await record('closed vacancies retention', () => purge(db, closedVacancyRetention(30), new Date()));
      await record("deleted connectors' vacancy states", () =>
        purge(db, deletedConnectorRetention('vacancy_state', 30), new Date()),
      );
      const feeds = new VacancyEventFeedRepository(db);
      await record('event feeds: due feeds claimed', () => feeds.claimDue(100, 60));
      await record("event feed: a connector's feed made or read", () =>
        feeds.ensure(connector, 'acct', 'vs-c', 60),
      );
      await record('event feed: the run lease for a poll', () =>
        feeds.tryLease(connector, 'plans-events', 60_000),
      );
      await record('event feed: a batch stored', () => feeds.storeRequest(connector, 7));
      await record('event feed: a batch applied', () =>
        feeds.apply(
          connector,
          { owner: 'plans-events', ttlMs: 60_000 },
          {
            seen: [{ externalId: 'v-001', contentHash: 'h-events' }],
            liveUntil: new Map(),
            closed: ['v-003'],
            lastEventAt: new Date(),
            nextInSeconds: 60,
          },
        ),
      );
      await record('event feed: an empty read', () => feeds.readEmpty(connector));
      await record('event feed: fallen back to polling', () => feeds.fallBack(connector, 'plans', 60));
      await record('event feed: subscribed again, a catch-up run asked', () => feeds.subscribed(connector));
      await record('event feed: the poll period of options never announced', () =>
        feeds.healPollPeriod(connector, 3, 30),
      );
      await record("event feed: the account's subscriptions", () =>
        feeds.accountSubscriptions('acct-42', connector),
      );
      await record("a connector's changed options applied to its schedule and feed", () =>
        runs.applyOptions({
          connectorId: connector,
          version: 2,
          intervalSeconds: 300,
          nextRunAt: new Date(),
          pollSeconds: 5,
          nextReadAt: new Date(),
        }),
      );
      await record('event feed: removed', () => feeds.remove(connector));
    },
  });

  it('recorded the statements of every piece it checks', () => {
    expect(new Set(plans.statements.map((s) => s.name.replace(/ #\d+$/, ''))).size).toBe(28);
  });

  it('sees a statement that reads a whole table (the check itself)', async () => {
    const findings = await plans.wholeTableScans([
      { name: 'by content', sql: `SELECT 1 FROM vacancy_state WHERE content_hash = $1`, params: ['h-1'] },
    ]);
    expect(findings).toEqual([expect.stringMatching(/^by content: Seq Scan on vacancy_state\n/)]);
  });

  it('reaches vacancy_state, sync_run, sync_connector and vacancy_event_feed through their indexes only', async () => {
    expect(await plans.wholeTableScans()).toEqual([]);
  });
});
