import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import { connectorSnapshot } from '@connector/ats-testing';
import {
  createEvent,
  Exchange,
  RoutingKey,
  type RunCompletedDto,
  type VacancyClosedDto,
  type VacancyEventFeedStatus,
  type VacancyUpsertedDto,
} from '@connector/contracts';
import { authorizeAtsB } from '@connector/service-stubs';
import { eventually, type ServiceProcess } from '@connector/testing';
import { type TestWorld, testWorld } from '@connector/test-world';

const ACCOUNT = 'acct_vacancy_events';
/** The connector's `eventPollSeconds` in this test (the floor is lowered to 1 for it). */
const POLL_SECONDS = 3;
/** "Within two poll periods", and a claim tick. */
const TWO_POLLS_MS = 2 * POLL_SECONDS * 1_000 + 500;
/** vacancy-sync's settings here, for every process of it. */
const WORKER_ENV = {
  SCHEDULER_TICK_MS: '500',
  EVENT_FEED_TICK_MS: '200',
  EVENT_POLL_MIN_SECONDS: '1',
  // A crashed process's lease and claim lapse within seconds.
  RUN_LEASE_TTL_MS: '5000',
};

/**
 * ATS-B's event subscriptions end to end: vacancy-sync (a real process) subscribes a connected connector at the
 * sandbox, reads it every few seconds and publishes each change once; a crash between reading a batch and
 * publishing reads the batch again; a dropped subscription falls back to polling (runs say EVENTS_UNAVAILABLE)
 * and comes back. ATS-B only: the checks drive its subscriptions, job orders and tenants through its sandbox.
 */
describe('vacancy-sync on ATS-B event subscriptions', () => {
  let world: TestWorld;
  let atsB: RunningAtsBSandbox;
  let worker: ServiceProcess;
  let db: Client;
  const connectorId = randomUUID();

  const startWorker = (extra: Record<string, string> = {}) => world.startService('vacancy-sync', extra);
  const published = <T>(type: string) => world.events(type).map((e) => ({ data: e.data as T }));

  /** What vacancy-sync published for the feed (events carry no run's correlation id). */
  const feedUpserts = (externalId: string, from = 0, ofConnector = connectorId) =>
    published<VacancyUpsertedDto>(RoutingKey.VacancyUpserted)
      .slice(from)
      .filter((e) => e.data.connectorId === ofConnector && e.data.externalId === externalId)
      .map((e) => e.data);
  const feedClosures = (externalId: string) =>
    published<VacancyClosedDto>(RoutingKey.VacancyClosed).filter(
      (e) => e.data.connectorId === connectorId && e.data.externalId === externalId,
    );
  const completedRuns = (ofConnector = connectorId) =>
    published<RunCompletedDto>(RoutingKey.RunCompleted)
      .map((e) => e.data)
      .filter((r) => r.connectorId === ofConnector);
  const subscriptions = () => atsB.state.events.list().map((s) => s.subscriptionId);
  const feedStatus = () =>
    world
      .rpc()
      .request<VacancyEventFeedStatus>(
        createEvent(RoutingKey.VacancyEventFeedRequested, ACCOUNT, { connectorId }),
      );
  const sandboxAdmin = (method: string, path: string, json?: unknown) =>
    fetch(`${atsB.url}/__sandbox${path}`, {
      method,
      headers: json === undefined ? {} : { 'content-type': 'application/json' },
      body: json === undefined ? undefined : JSON.stringify(json),
    });

  /** Waits until the feed has read the connector's subscription with nothing left in it and nothing pending. */
  const feedSettled = () =>
    eventually(
      async () => {
        const { rows } = await db.query<{ pending: number | null }>(
          `SELECT pending_request_id AS pending FROM vacancy_event_feed WHERE connector_id = $1 AND mode = 'events'`,
          [connectorId],
        );
        const queued = atsB.state.events.list().find((s) => s.subscriptionId)?.queued;
        return rows[0] && rows[0].pending === null && queued === 0 ? true : undefined;
      },
      TWO_POLLS_MS * 2,
      'the event feed read everything (nothing queued at the ATS, no batch pending)',
    );

  beforeAll(async () => {
    world = await testWorld({
      name: 'e2e_vacancy_events_ats_b',
      services: ['auth-gateway', 'vacancy-sync'],
      serviceEnv: { 'vacancy-sync': WORKER_ENV },
      registry: 'stub',
      sandboxes: ['ats-b'],
      sandboxOptions: { vacancies: 30, seed: 5 },
      tap: [Exchange.ConnectorEvents],
    });
    atsB = world.sandbox('ats-b').running as RunningAtsBSandbox;
    worker = world.service('vacancy-sync');
    db = new Client({ connectionString: world.env.DATABASE_URL });
    await db.connect();

    await world.connect('ats-b', {
      accountId: ACCOUNT,
      id: connectorId,
      options: { eventPollSeconds: POLL_SECONDS },
      ownDailyLimit: false,
    });
    world.broker.publish(
      Exchange.ConnectorEvents,
      RoutingKey.ConnectorStatusChanged,
      createEvent(RoutingKey.ConnectorStatusChanged, ACCOUNT, { connectorId, status: 'connected' }),
    );
    // Connected: the first (full) sync runs at once and the subscription is made.
    await eventually(
      () => completedRuns().find((r) => r.status === 'succeeded'),
      60_000,
      'the first sync of the connected connector',
    );
    await eventually(
      () => (subscriptions().length === 1 ? true : undefined),
      30_000,
      'the subscription made',
    );
    await eventually(
      async () => ((await feedStatus()).mode === 'events' ? true : undefined),
      30_000,
      'feed on events',
    );
  }, 180_000);

  afterAll(async () => {
    await db?.end();
    await world?.close();
  }, 60_000);

  it('tells the registry the connector is on events, read every few seconds', async () => {
    const status = await eventually(
      async () => {
        const s = await feedStatus();
        return s.lastReadAt ? s : undefined;
      },
      TWO_POLLS_MS,
      'the feed status with the time of its last read',
    );
    expect(status).toMatchObject({ connectorId, mode: 'events', pollSeconds: POLL_SECONDS });
    expect(Date.parse(status.lastReadAt!)).toBeGreaterThan(Date.parse(status.since!) - 1);
  });

  it('brings a job order created, retitled, closed and deleted in the ATS within two poll periods, once each', async () => {
    const created = await (await sandboxAdmin('POST', '/jobs', { title: 'Event-driven engineer' })).json();
    const id = String((created as { id: number }).id);
    await eventually(() => feedUpserts(id)[0], TWO_POLLS_MS, `vacancy.upserted of the created job ${id}`);

    await sandboxAdmin('PATCH', `/jobs/${id}`, { title: 'Senior event-driven engineer' });
    await eventually(
      () => feedUpserts(id).find((u) => u.title === 'Senior event-driven engineer'),
      TWO_POLLS_MS,
      `vacancy.upserted of the retitled job ${id}`,
    );

    await sandboxAdmin('POST', `/jobs/${id}/close`);
    await eventually(() => feedClosures(id)[0], TWO_POLLS_MS, `vacancy.closed of the closed job ${id}`);

    // A live job from the first sync, deleted for good in the ATS.
    const deleted = liveSeededJob();
    await sandboxAdmin('DELETE', `/jobs/${deleted}`);
    await eventually(
      () => feedClosures(deleted)[0],
      TWO_POLLS_MS,
      `vacancy.closed of the deleted job ${deleted}`,
    );

    await feedSettled();
    expect(feedUpserts(id).map((u) => u.title)).toEqual([
      'Event-driven engineer',
      'Senior event-driven engineer',
    ]);
    expect(feedClosures(id)).toHaveLength(1);
    expect(feedClosures(deleted)).toHaveLength(1);
  });

  it('reads a batch again after the process dies between reading it and publishing: nothing lost or doubled', async () => {
    await worker.stop();
    const crashing = await startWorker({ EVENT_FEED_CRASH_AFTER_STORE: 'exit' });
    const id = liveSeededJob();
    const mark = world.events(RoutingKey.VacancyUpserted).length;
    await sandboxAdmin('PATCH', `/jobs/${id}`, { title: 'Retitled before a crash' });
    const code = await Promise.race([
      crashing.exited,
      new Promise<'alive'>((resolve) => setTimeout(() => resolve('alive'), 30_000).unref()),
    ]);
    if (code === 'alive') await crashing.stop();
    expect(code).not.toBe('alive'); // it read the batch, stored its requestId and died
    // It died with the batch's requestId stored (its log line may not have been flushed before the kill).
    const { rows } = await db.query<{ pending: number | null }>(
      `SELECT pending_request_id AS pending FROM vacancy_event_feed WHERE connector_id = $1`,
      [connectorId],
    );
    expect(rows[0]?.pending).toEqual(expect.any(Number));
    expect(feedUpserts(id, mark)).toEqual([]);

    worker = await startWorker();
    await eventually(
      () => feedUpserts(id, mark).find((u) => u.title === 'Retitled before a crash'),
      30_000,
      `vacancy.upserted of job ${id} after the restart (the batch read again by its requestId)`,
    );
    await feedSettled();
    expect(feedUpserts(id, mark).map((u) => u.title)).toEqual(['Retitled before a crash']);
  });

  it('falls back to polling with EVENTS_UNAVAILABLE when the ATS drops the subscription, then is on events again', async () => {
    const [subscriptionId] = subscriptions();
    const before = completedRuns().length;
    const droppedAt = new Date();
    expect((await sandboxAdmin('DELETE', `/event-subscriptions/${subscriptionId}`)).status).toBe(200);

    const warned = await eventually(
      () =>
        completedRuns()
          .slice(before)
          .find((r) => r.warnings?.some((w) => w.code === 'EVENTS_UNAVAILABLE')),
      30_000,
      'a run of the connector warning EVENTS_UNAVAILABLE (the feed fell back to polling)',
    );
    expect(warned.status).toBe('succeeded');

    // Made again (by the poller, or by that run before it listed): on events, and a full run catches up on what
    // the lost subscription missed (a job deleted for good meanwhile is seen only by a full listing).
    await eventually(
      async () => ((await feedStatus()).mode === 'events' ? true : undefined),
      30_000,
      'feed on events again',
    );
    expect(subscriptions()).toEqual([subscriptionId]);
    const after = completedRuns().length;
    const mark = world.events(RoutingKey.VacancyUpserted).length;
    const id = liveSeededJob();
    await sandboxAdmin('PATCH', `/jobs/${id}`, { title: 'Heard of again' });
    await eventually(
      () => feedUpserts(id, mark).find((u) => u.title === 'Heard of again'),
      TWO_POLLS_MS + 5_000,
      `vacancy.upserted of job ${id} through the re-made subscription`,
    );
    const { rows: full } = await db.query(
      `SELECT run_id FROM sync_run
       WHERE connector_id = $1 AND mode = 'full' AND status = 'succeeded' AND created_at >= $2`,
      [connectorId, droppedAt],
    );
    expect(full).toHaveLength(1);
    // On events again, runs carry no warning.
    const later = completedRuns().slice(after);
    expect(later.every((r) => !r.warnings?.some((w) => w.code === 'EVENTS_UNAVAILABLE'))).toBe(true);
    // syncIntervalMinutes 15, lengthened while events are healthy. The end of a run is written just after its
    // run.completed is announced, so the interval is waited for.
    await eventually(
      async () => {
        const { rows } = await db.query<{ interval_seconds: number }>(
          `SELECT interval_seconds FROM sync_connector WHERE connector_id = $1`,
          [connectorId],
        );
        return rows[0]?.interval_seconds === 3_600 ? true : undefined;
      },
      15_000,
      'the interval lengthened to 3600 s by the catch-up run, on events (sync_connector.interval_seconds)',
    );
  });

  it('applies a changed eventPollSeconds at once in every process: from 3 600 s to 2 s, a change comes within a few new periods', async () => {
    let version = 1;
    /** What connector-registry does when an admin saves the option: the snapshot changes, then connector.changed. */
    const changePoll = (eventPollSeconds: number) => {
      version += 1;
      const current = world.connectors.get(connectorId)!;
      world.connectors.set(connectorId, {
        ...current,
        options: { ...current.options, eventPollSeconds },
        version,
      });
      world.broker.publish(
        Exchange.Internal,
        RoutingKey.ConnectorChanged,
        createEvent(RoutingKey.ConnectorChanged, ACCOUNT, { connectorId, version }),
      );
    };
    const hourly = async () => {
      const { rows } = await db.query<{ poll_seconds: number; far: boolean }>(
        `SELECT poll_seconds, next_read_at > now() + interval '10 minutes' AS far
         FROM vacancy_event_feed WHERE connector_id = $1`,
        [connectorId],
      );
      return rows[0]?.poll_seconds === 3_600 && rows[0].far ? true : undefined;
    };
    // Two processes share the feeds: whichever hears of the change and whichever polls, the new period holds.
    const second = await startWorker();
    try {
      changePoll(3_600);
      await eventually(hourly, 20_000, 'the feed read hourly (poll_seconds 3600, its next read far ahead)');

      const {
        rows: [{ changedAt }],
      } = await db.query<{ changedAt: Date }>('SELECT now() AS "changedAt"');
      changePoll(2);
      // The new period takes effect within one new period: the feed is read again 2 s after the change, not
      // an hour later (plus up to 3 s for connector.changed and the poller's tick on a loaded machine).
      await eventually(
        async () => {
          const { rows } = await db.query<{ read: boolean }>(
            'SELECT last_read_at > $2 AS read FROM vacancy_event_feed WHERE connector_id = $1',
            [connectorId, changedAt],
          );
          return rows[0]?.read ? true : undefined;
        },
        2_000 + 3_000,
        'the feed read again within one new period (2 s) of eventPollSeconds 3600 → 2',
      );
      const mark = world.events(RoutingKey.VacancyUpserted).length;
      const id = liveSeededJob();
      await sandboxAdmin('PATCH', `/jobs/${id}`, { title: 'Heard of within the new period' });
      // Before, the new period took effect only after the old one (an hour) had passed.
      await eventually(
        () => feedUpserts(id, mark).find((u) => u.title === 'Heard of within the new period'),
        3 * 2_000 + 1_000,
        `vacancy.upserted of job ${id} within a few new poll periods (2 s) of eventPollSeconds 3600 → 2`,
      );
    } finally {
      changePoll(POLL_SECONDS);
      await second.stop();
    }
  });

  it("reads a job order changed during a new connector's first run within two poll periods of its end, once", async () => {
    // The first run holds the connector before its feed exists (asked for as it connects; a scheduled first sync
    // that the scheduler claims before the poller's tick is the same): nothing else can subscribe it meanwhile.
    // Its own customer at the vendor (a tenant): 700 job orders, two listing pages.
    const tenant = await atsB.tenants.create('first-run', { jobs: 700 });
    const newcomer = randomUUID();
    await authorizeAtsB(world.rpc(), ACCOUNT, newcomer, {
      username: 'recruiter@first-run',
      password: 'recruiter-pass',
    });
    world.connectors.set(
      newcomer,
      connectorSnapshot({
        id: newcomer,
        accountId: ACCOUNT,
        type: 'ats-b',
        config: { routine: 'api-oauth' },
        options: { eventPollSeconds: POLL_SECONDS },
        ownDailyLimit: false,
      }),
    );
    // Each of its data calls takes 2 s: the first run lists for several seconds after its first page.
    tenant.state.setFaults({ latencyMs: 2_000 });
    const title = 'Changed during the first run';
    try {
      world.broker.publish(
        Exchange.Internal,
        RoutingKey.RunRequested,
        createEvent(RoutingKey.RunRequested, ACCOUNT, { connectorId: newcomer, runId: randomUUID() }),
      );
      const running = () =>
        db.query(`SELECT 1 FROM sync_run WHERE connector_id = $1 AND status = 'running'`, [newcomer]);
      await eventually(
        async () => (await running()).rows[0],
        30_000,
        "the new connector's first run started",
      );
      world.broker.publish(
        Exchange.ConnectorEvents,
        RoutingKey.ConnectorStatusChanged,
        createEvent(RoutingKey.ConnectorStatusChanged, ACCOUNT, {
          connectorId: newcomer,
          status: 'connected',
        }),
      );
      // A job order the run already listed and published (its first page committed), the run still going.
      const changed = await eventually(
        async () => {
          const { rows } = await db.query<{ external_id: string }>(
            `SELECT v.external_id FROM vacancy_state v
             WHERE v.connector_id = $1 AND v.live
               AND EXISTS (SELECT 1 FROM sync_run r WHERE r.connector_id = v.connector_id AND r.status = 'running')
             ORDER BY v.external_id LIMIT 1`,
            [newcomer],
          );
          return rows[0]?.external_id;
        },
        60_000,
        "the first page of the new connector's first run committed while the run goes on",
      );
      tenant.state.updateJob(Number(changed), { title });
      expect((await running()).rows).toHaveLength(1); // changed during the run, after the run read it
      tenant.state.clearFaults();

      await eventually(
        () => completedRuns(newcomer).find((r) => r.status === 'succeeded'),
        60_000,
        "the new connector's first run",
      );
      const endedAt = Date.now();
      // Before, the connector was subscribed only after this run: the change waited for a later run.
      await eventually(
        () => feedUpserts(changed, 0, newcomer).find((u) => u.title === title),
        TWO_POLLS_MS + 1_000,
        `vacancy.upserted of job ${changed} (changed during the first run) within two poll periods of its end`,
      );
      expect(Date.now() - endedAt).toBeLessThanOrEqual(TWO_POLLS_MS + 1_000);
      await eventually(
        async () => {
          const { rows } = await db.query<{ pending: number | null }>(
            `SELECT pending_request_id AS pending FROM vacancy_event_feed WHERE connector_id = $1 AND mode = 'events'`,
            [newcomer],
          );
          const queued = tenant.state.events.list()[0]?.queued;
          return rows[0] && rows[0].pending === null && queued === 0 ? true : undefined;
        },
        TWO_POLLS_MS * 2,
        "the new connector's feed read everything (nothing queued at the ATS, no batch pending)",
      );
      expect(feedUpserts(changed, 0, newcomer).filter((u) => u.title === title)).toHaveLength(1);
    } finally {
      tenant.state.clearFaults();
    }
  });

  /** A job the first sync published and nothing in this test touched since (each call takes another). */
  const used = new Set<string>();
  function liveSeededJob(): string {
    for (let n = 1; n <= atsB.state.jobs.size; n++) {
      const job = atsB.state.job(n);
      const id = String(n);
      if (job && job.isOpen && job.isPublic === 1 && !job.isDeleted && !used.has(id)) {
        used.add(id);
        return id;
      }
    }
    throw new Error('no live seeded job left');
  }
});
