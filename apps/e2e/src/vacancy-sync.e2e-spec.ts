import { randomBytes, randomUUID } from 'node:crypto';
import type { ConsumeMessage } from 'amqplib';
import { Client } from 'pg';
import { startAtsASandbox, type RunningAtsASandbox, VACANCY_STATUSES } from '@connector/ats-a-sandbox';
import { startAtsBSandbox, type RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import { type AtsAVacancy, atsAVacancyLiveness } from '@connector/ats-a';
import {
  type ConnectorSnapshot,
  createEvent,
  Exchange,
  Queue,
  RoutingKey,
  type RunCompletedDto,
  type VacancyUpsertedDto,
} from '@connector/contracts';
import { defaultJobMapping } from '@connector/ats-registry';
import { RabbitConnection, RpcClient } from '@connector/messaging';
import { connectorSnapshot } from '@connector/ats-testing';
import {
  createSuiteInfrastructure,
  eventually,
  rabbitUrl,
  startService,
  type ServiceProcess,
  TestBroker,
  type TestDatabase,
  type SuiteInfrastructure,
  parseEvent,
  requestRun,
  runOutcome,
  tapVacancyRuns,
  type VacancyRunTaps,
} from '@connector/testing';
import {
  authorizeAtsB,
  type ConnectorDirectoryStub,
  startAuthGateway,
  saveAtsACredentials,
  startConnectorDirectoryStub,
} from '@connector/service-stubs';

const ACCOUNT = 'acct_vacancies';
const CLIENT_SECRET = `secret-${randomBytes(8).toString('hex')}`;
const QUOTA_WINDOW_SECONDS = 5;

/** What connector-registry would answer; the registry itself is not part of this test. */
const snapshots = new Map<string, ConnectorSnapshot>();

/** The sandbox's (the vendor's) ids of the statuses the connectors are configured with by name. */
const OPEN_STATUS_IDS = VACANCY_STATUSES.filter((s) => ['Open', 'Live'].includes(s.Description)).map(
  (s) => s.Id,
);

describe('vacancy-sync', () => {
  let database: TestDatabase;
  let atsA: RunningAtsASandbox;
  let atsAQuota: RunningAtsASandbox;
  let atsB: RunningAtsBSandbox;
  let gateway: ServiceProcess;
  const workers: ServiceProcess[] = [];
  let registryStub: ConnectorDirectoryStub;
  let connection: RabbitConnection;
  let rpc: RpcClient;
  let broker: TestBroker;
  let upserted: ConsumeMessage[];
  let completed: ConsumeMessage[];
  let taps: VacancyRunTaps;
  let progress: ConsumeMessage[];

  const request = <T>(type: string, data: object, timeoutMs = 20_000) =>
    rpc.request<T>(createEvent(type, ACCOUNT, data), timeoutMs);

  const snapshot = (id: string, type: 'ats-a' | 'ats-b', config: Record<string, unknown>, options = {}) =>
    snapshots.set(
      id,
      connectorSnapshot({ id, accountId: ACCOUNT, type, config, options, ownDailyLimit: false }),
    );

  async function atsAConnector(sandbox: RunningAtsASandbox, options = {}): Promise<string> {
    const connectorId = randomUUID();
    const config = { baseUrl: sandbox.url, clientId: 'demo-client', clientSecret: CLIENT_SECRET };
    await saveAtsACredentials(rpc, ACCOUNT, connectorId, config);
    snapshot(connectorId, 'ats-a', { baseUrl: sandbox.url, clientId: 'demo-client' }, options);
    return connectorId;
  }

  async function atsBConnector(): Promise<string> {
    const connectorId = randomUUID();
    await authorizeAtsB(rpc, ACCOUNT, connectorId);
    snapshot(connectorId, 'ats-b', { routine: 'api-oauth' });
    return connectorId;
  }

  /** Publishes run.requested like the registry and waits for its run.completed; returns what the run published. */
  const run = (connectorId: string, mode?: 'full' | 'incremental', timeoutMs = 60_000) =>
    requestRun(broker, taps, { accountId: ACCOUNT, connectorId, mode }, timeoutMs);
  const outcomeOf = (requestId: string, runId: string, timeoutMs = 60_000) =>
    runOutcome(taps, requestId, runId, timeoutMs);

  function liveAtsAIds(sandbox: RunningAtsASandbox): string[] {
    const ids: string[] = [];
    for (let id = 1; id <= sandbox.state.vacancyCount(); id++) {
      const vacancy = sandbox.state.getVacancy(id) as unknown as AtsAVacancy | undefined;
      if (vacancy && atsAVacancyLiveness(vacancy, OPEN_STATUS_IDS, new Date()).live) ids.push(String(id));
    }
    return ids.sort();
  }

  function onSiteOpenCount(sandbox: RunningAtsASandbox): number {
    let n = 0;
    for (let id = 1; id <= sandbox.state.vacancyCount(); id++) {
      const v = sandbox.state.getVacancy(id);
      if (v && v.IncludeOnSite && ['Open', 'Live'].includes(v.VacancyStatus.Description)) n++;
    }
    return n;
  }

  const sorted = (ids: string[]) => [...ids].sort();
  const atsACalls = (sandbox: RunningAtsASandbox) => sandbox.state.callCounts().byEndpoint;

  let infra: SuiteInfrastructure;

  beforeAll(async () => {
    // A RabbitMQ vhost of its own: no other suite's or developer's services take this suite's messages.
    infra = await createSuiteInfrastructure('e2e_vacancy_sync');
    ({ database } = infra);
    const clients = [{ clientId: 'demo-client', clientSecret: CLIENT_SECRET }];
    atsA = await startAtsASandbox({ clients, seed: { vacancies: 450, seed: 3 } });
    atsAQuota = await startAtsASandbox({
      clients,
      seed: { vacancies: 400, seed: 5 },
      dailyLimit: 4,
      quotaWindowSeconds: QUOTA_WINDOW_SECONDS,
    });
    atsB = await startAtsBSandbox({ seed: { jobs: 700, seed: 2 } });

    broker = await TestBroker.connect();
    // No registry may answer lookups but the stub; no leftover queue may hold this suite's messages.
    await broker.deleteQueuesIfPresent([Queue.ConnectorRegistry, Queue.VacancySync, Queue.AuthGateway]);
    taps = await tapVacancyRuns(broker);
    ({ upserted, completed } = taps);
    progress = await broker.tap(Exchange.Internal, RoutingKey.RunProgress);

    registryStub = await startConnectorDirectoryStub(snapshots);

    const env = { DATABASE_URL: database.url, RABBITMQ_URL: rabbitUrl() };
    gateway = await startAuthGateway(atsB, env);
    // Two workers on one queue, as in production; a rate-limit wait always parks the run (never sleeps in place).
    const workerEnv = { ...env, SCHEDULER_TICK_MS: '500', RUN_INLINE_WAIT_MAX_MS: '0', LOG_LEVEL: 'info' };
    workers.push(
      ...(await Promise.all([
        startService('vacancy-sync', workerEnv),
        startService('vacancy-sync', workerEnv),
      ])),
    );
    connection = new RabbitConnection({ url: rabbitUrl(), name: 'e2e-vacancy-sync' });
    rpc = new RpcClient(connection, 'connector-registry');
  }, 180_000);

  afterAll(async () => {
    await rpc?.close();
    await connection?.close();
    await Promise.all(workers.map((w) => w.stop()));
    await gateway?.stop();
    await registryStub?.close();
    await broker?.close();
    await atsA?.close();
    await atsAQuota?.close();
    await atsB?.close();
    await infra?.drop();
  }, 60_000);

  describe('ATS-A', () => {
    let connectorId: string;

    beforeAll(async () => {
      connectorId = await atsAConnector(atsA);
    });

    it('publishes every live vacancy once, with its contact and company, at the minimum of API calls', async () => {
      atsA.state.resetCalls();
      const { completed: done, upserts, closures } = await run(connectorId);
      const live = liveAtsAIds(atsA);
      expect(live.length).toBeGreaterThan(150);
      expect(done).toMatchObject({
        status: 'succeeded',
        counts: { fetched: live.length, upserted: live.length, unchanged: 0, closed: 0 },
      });
      expect(sorted(upserts.map((u) => u.externalId))).toEqual(live);
      expect(closures).toEqual([]);

      for (const upsert of upserts) {
        const vacancy = atsA.state.getVacancy(Number(upsert.externalId))!;
        const company = vacancy.Company ? atsA.state.getCompany(vacancy.Company.Id) : undefined;
        const contact = vacancy.Contact ? atsA.state.getContact(vacancy.Contact.Id) : undefined;
        expect(upsert.company?.name).toBe(company?.Name);
        expect(upsert.contact?.externalId).toBe(contact ? String(contact.ContactId) : undefined);
        expect(upsert).toMatchObject({ connectorId, atsType: 'ats-a', title: vacancy.Title.Description });
      }

      const calls = atsACalls(atsA);
      // The ATS filters status and IncludeOnSite; the advertising dates are checked here.
      const pages = calls['POST /api/vacancies/search'];
      expect(pages).toBe(Math.ceil(onSiteOpenCount(atsA) / 100));
      expect(calls['POST /api/contacts/search']).toBeLessThanOrEqual(pages);
      expect(calls['POST /api/companies/search']).toBeLessThanOrEqual(pages);
      // One more: the status list (dropdown 50) that turns "Open" and "Live" into the ATS's ids.
      expect(calls['GET /api/options/dropdown/{id}']).toBe(1);
      expect(done.apiCalls).toBe(
        pages + calls['POST /api/contacts/search'] + calls['POST /api/companies/search'] + 1,
      );
      // progress was visible while it ran
      expect(progress.map((m) => parseEvent<{ runId: string }>(m).data.runId)).toContain(done.runId);
    });

    it('publishes nothing when nothing changed', async () => {
      const { completed: done, upserts, closures } = await run(connectorId);
      expect(done.status).toBe('succeeded');
      expect(upserts).toEqual([]);
      expect(closures).toEqual([]);
    });

    it('publishes exactly one upsert for the one vacancy changed in the ATS', async () => {
      const [id] = liveAtsAIds(atsA);
      atsA.state.updateVacancy(Number(id), { Requirements: 'A changed requirement' });
      const { completed: done, upserts } = await run(connectorId);
      expect(upserts.map((u) => u.externalId)).toEqual([id]);
      expect(upserts[0].requirements).toBe('A changed requirement');
      expect(done.counts.upserted).toBe(1);
    });

    it('closes one vacancy closed and one hidden in the ATS and upserts the one changed, in a default run', async () => {
      const [closing, hiding, changing] = liveAtsAIds(atsA).slice(10, 13);
      atsA.state.closeVacancy(Number(closing));
      atsA.state.unpublish(Number(hiding));
      atsA.state.updateVacancy(Number(changing), { Title: 'A retitled vacancy' });
      atsA.state.resetCalls();
      const { completed: done, upserts, closures } = await run(connectorId); // default mode: changes only
      expect(upserts.map((u) => [u.externalId, u.title])).toEqual([[changing, 'A retitled vacancy']]);
      expect(sorted(closures.map((c) => c.externalId))).toEqual(sorted([closing, hiding]));
      expect(closures.every((c) => c.connectorId === connectorId)).toBe(true);
      expect(done.counts).toMatchObject({ upserted: 1, closed: 2 });
      // One listing page of changed vacancies; enrichment only for the live one.
      const calls = atsACalls(atsA);
      expect(calls['POST /api/vacancies/search']).toBe(1);
      expect(calls['POST /api/contacts/search'] ?? 0).toBeLessThanOrEqual(1);
      expect(calls['POST /api/companies/search'] ?? 0).toBeLessThanOrEqual(1);
    });

    it('publishes a closed vacancy again when it is open again', async () => {
      const id = liveAtsAIds(atsA)[20];
      atsA.state.closeVacancy(Number(id));
      const closedRun = await run(connectorId);
      expect(closedRun.closures.map((c) => c.externalId)).toEqual([id]);
      atsA.state.updateVacancy(Number(id), { VacancyStatus: 'Live' });
      const reopened = await run(connectorId);
      expect(reopened.upserts.map((u) => u.externalId)).toEqual([id]);
      expect(reopened.closures).toEqual([]);
    });

    it('closes a vacancy deleted in the ATS on the next full listing, by its absence', async () => {
      const id = liveAtsAIds(atsA)[5];
      atsA.state.removeVacancy(Number(id));
      const { completed: done, upserts, closures } = await run(connectorId, 'full');
      expect(closures).toEqual([{ connectorId, externalId: id }]);
      expect(upserts).toEqual([]);
      expect(done.counts).toMatchObject({ closed: 1, upserted: 0 });
    });

    it('closes a published vacancy once its last advertised day has passed, though its record did not change', async () => {
      // A live vacancy with an advertising end date, not changed lately (no listing will show it again).
      const id = liveAtsAIds(atsA).find((candidate) => {
        const v = atsA.state.getVacancy(Number(candidate))!;
        return v.AdvertisingEndDate !== null && Date.parse(v.ModificationDate) < Date.now() - 3_600_000;
      })!;
      const lastDay = atsA.state.getVacancy(Number(id))!.AdvertisingEndDate!.slice(0, 10);
      // The worker's clock cannot be moved: move the stored last day back to yesterday instead, as if the
      // days up to its end had passed, and the connector's last success to yesterday with it (a connector
      // looks for expired vacancies at its first run of a day).
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const db = new Client({ connectionString: database.url });
      await db.connect();
      await db.query(
        `UPDATE sync_connector SET last_success_started_at = last_success_started_at - interval '1 day'
          WHERE connector_id = $1`,
        [connectorId],
      );
      const { rows } = await db.query<{ was: string }>(
        `UPDATE vacancy_state s SET live_until = $3::date FROM vacancy_state old
          WHERE s.connector_id = $1 AND s.external_id = $2 AND old.connector_id = s.connector_id
            AND old.external_id = s.external_id AND s.live
         RETURNING to_char(old.live_until, 'YYYY-MM-DD') AS was`,
        [connectorId, id, yesterday],
      );
      await db.end();
      expect(rows).toEqual([{ was: lastDay }]); // the run had kept the ATS's last advertised day
      atsA.state.resetCalls();
      // Last on this connector: from here its stored state and the ATS disagree about what day it is.
      const { completed: done, upserts, closures } = await run(connectorId); // default mode: changes only
      expect(closures).toEqual([{ connectorId, externalId: id }]);
      expect(upserts).toEqual([]);
      expect(done.counts).toMatchObject({ closed: 1 });
      expect(atsACalls(atsA)['POST /api/vacancies/search']).toBe(1); // the one changes-only page, nothing more
    });

    it('warns on the run about a configured status the ATS does not offer, and lists the others', async () => {
      const other = await atsAConnector(atsA, { openStatuses: ['Open', 'Live', 'Advertised'] });
      const { completed: done, upserts } = await run(other);
      expect(done.status).toBe('succeeded');
      expect(sorted(upserts.map((u) => u.externalId))).toEqual(liveAtsAIds(atsA));
      expect(done.warnings).toEqual([
        { code: 'UNKNOWN_STATUSES', message: expect.stringContaining('“Advertised”') },
      ]);
      expect(done.warnings?.[0].message).toContain('It offers: “Draft”, “Open”, “Live”');
    });

    it('warns when a full listing answers nothing although the ATS has vacancies on its careers site', async () => {
      // "Filled" is offered, but no filled vacancy is on the careers site any more.
      const filled = VACANCY_STATUSES.find((st) => st.Description === 'Filled')!.Id;
      for (let id = 1; id <= atsA.state.vacancyCount(); id++) {
        const v = atsA.state.getVacancy(id);
        if (v && v.VacancyStatus.Id === filled && v.IncludeOnSite) atsA.state.unpublish(id);
      }
      const other = await atsAConnector(atsA, { openStatuses: ['Filled'] });
      atsA.state.resetCalls();
      const { completed: done, upserts } = await run(other);
      expect(done).toMatchObject({ status: 'succeeded', counts: { fetched: 0, upserted: 0, closed: 0 } });
      expect(upserts).toEqual([]);
      expect(done.warnings).toEqual([
        {
          code: 'EMPTY_LISTING',
          message: expect.stringMatching(
            /statuses “Filled”.*got none, although ATS-A has \d+ vacancies on the careers site/,
          ),
        },
      ]);
      // The check is one extra call, made only because the listing was empty.
      expect(atsACalls(atsA)['POST /api/vacancies/search']).toBe(2);
    });

    it('fails a run none of whose statuses the ATS offers, saying which statuses it does offer', async () => {
      const other = await atsAConnector(atsA, { openStatuses: ['Advertised'] });
      const { completed: done, upserts, closures } = await run(other);
      expect(done.status).toBe('failed');
      expect(upserts).toEqual([]);
      expect(closures).toEqual([]);
      expect(done.warnings).toEqual([
        { code: 'RUN_FAILED', message: expect.stringMatching(/“Advertised”.*It offers: “Draft”, “Open”/) },
      ]);
    });

    it('answers a mapping preview without publishing anything', async () => {
      const before = upserted.length;
      const mapping = {
        ...defaultJobMapping('ats-a'),
        fields: { ...defaultJobMapping('ats-a').fields, title: { constant: 'Fixed' } },
      };
      const reply = await request<{ vacancies: VacancyUpsertedDto[] }>(RoutingKey.VacancyPreviewRequested, {
        connectorId,
        mapping,
        limit: 3,
      });
      expect(reply.vacancies).toHaveLength(3);
      expect(reply.vacancies.every((v) => v.title === 'Fixed')).toBe(true);
      expect(upserted.length).toBe(before);
    });
  });

  describe('ATS-B', () => {
    let connectorId: string;
    const liveJobs = () => {
      const ids: string[] = [];
      for (let id = 1; id <= 2000; id++) {
        const job = atsB.state.job(id);
        if (job && job.isOpen && job.isPublic && !job.isDeleted) ids.push(String(id));
      }
      return ids.sort();
    };

    beforeAll(async () => {
      connectorId = await atsBConnector();
    });

    it('publishes every open public job, then only what changed, and closes what closed', async () => {
      const first = await run(connectorId);
      expect(first.completed.status).toBe('succeeded');
      expect(sorted(first.upserts.map((u) => u.externalId))).toEqual(liveJobs());
      expect(first.upserts[0]).toMatchObject({ connectorId, atsType: 'ats-b' });

      const [changed, closing] = liveJobs();
      atsB.state.updateJob(Number(changed), { title: 'Changed title' });
      const second = await run(connectorId);
      expect(second.upserts.map((u) => [u.externalId, u.title])).toEqual([[changed, 'Changed title']]);

      atsB.state.closeJob(Number(closing));
      const third = await run(connectorId, 'full');
      expect(third.closures).toEqual([{ connectorId, externalId: closing }]);
      expect(third.upserts).toEqual([]);
    });
  });

  describe('the daily limit', () => {
    it('pauses at the limit and finishes after the reset, publishing each vacancy once', async () => {
      const connectorId = await atsAConnector(atsAQuota);
      // Start right after a window reset so the run meets the limit in its middle, not at its start.
      const windowMs = QUOTA_WINDOW_SECONDS * 1000;
      await new Promise((resolve) => setTimeout(resolve, windowMs - (Date.now() % windowMs) + 50));
      atsAQuota.state.resetCalls();
      const started = Date.now();
      const { completed: done, upserts } = await run(connectorId, 'full', 90_000);
      const elapsedWindows = Math.ceil((Date.now() - started) / windowMs) + 1;

      const live = liveAtsAIds(atsAQuota);
      expect(done.status).toBe('succeeded');
      expect(upserts.map((u) => u.externalId).sort()).toEqual(live); // each once: no duplicates
      // It met the limit (more than one window) and waited for resets rather than retrying in a loop:
      // at most one refused call per window on top of what the windows allowed.
      expect(elapsedWindows).toBeGreaterThan(2);
      const total = atsAQuota.state.callCounts().total;
      expect(total).toBeLessThanOrEqual(elapsedWindows * (4 + 1));
    }, 120_000);
  });

  describe('two vacancy-sync processes', () => {
    it('never run one connector twice at once, and publish each vacancy once', async () => {
      const connectorId = await atsAConnector(atsA);
      const requests = [randomUUID(), randomUUID()].map((runId) => ({
        runId,
        event: createEvent(RoutingKey.RunRequested, ACCOUNT, { connectorId, runId }),
      }));
      for (const { event } of requests) broker.publish(Exchange.Internal, RoutingKey.RunRequested, event);
      const outcomes = await Promise.all(requests.map(({ event, runId }) => outcomeOf(event.id, runId)));

      expect(outcomes.map((o) => o.completed.status)).toEqual(['succeeded', 'succeeded']);
      const all = outcomes.flatMap((o) => o.upserts.map((u) => u.externalId));
      expect(all.sort()).toEqual(liveAtsAIds(atsA));

      const db = new Client({ connectionString: database.url });
      await db.connect();
      const { rows } = await db.query<{ started_at: Date; finished_at: Date }>(
        `SELECT started_at, finished_at FROM sync_run WHERE connector_id = $1 ORDER BY started_at`,
        [connectorId],
      );
      await db.end();
      expect(rows).toHaveLength(2);
      expect(rows[0].finished_at.getTime()).toBeLessThanOrEqual(rows[1].started_at.getTime());
    });
  });

  describe('the schedule', () => {
    it('runs a connector again by itself after its interval', async () => {
      const connectorId = await atsAConnector(atsA, { syncIntervalMinutes: 0.05 }); // 3 s
      const first = await run(connectorId);
      expect(first.completed.status).toBe('succeeded');
      const scheduled = await eventually(
        () =>
          completed
            .map((m) => parseEvent<RunCompletedDto>(m).data)
            .find((d) => d.connectorId === connectorId && d.runId !== first.completed.runId),
        20_000,
        'a scheduled run',
      );
      expect(scheduled).toMatchObject({ status: 'succeeded', counts: { upserted: 0, closed: 0 } });
    }, 40_000);

    it('syncs a connector as soon as it is reported connected, before anyone presses Run', async () => {
      const connectorId = await atsAConnector(atsA);
      broker.publish(
        Exchange.ConnectorEvents,
        RoutingKey.ConnectorStatusChanged,
        createEvent(RoutingKey.ConnectorStatusChanged, ACCOUNT, { connectorId, status: 'connected' }),
      );
      const firstRun = await eventually(
        () =>
          completed
            .map((m) => parseEvent<RunCompletedDto>(m).data)
            .find((d) => d.connectorId === connectorId),
        20_000,
        'a first scheduled run',
      );
      expect(firstRun).toMatchObject({ status: 'succeeded' });
      expect(firstRun.counts.upserted).toBe(liveAtsAIds(atsA).length);
      // The run says when the next scheduled one is due (the default 15 minutes: its slot, 1.5 to 16.5 min on).
      const nextIn = Date.parse(firstRun.nextRunAt ?? '') - Date.now();
      expect(nextIn).toBeGreaterThan(60_000);
      expect(nextIn).toBeLessThanOrEqual(16.5 * 60_000);
    }, 40_000);
  });
});
