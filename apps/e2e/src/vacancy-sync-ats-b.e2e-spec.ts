import { randomUUID } from 'node:crypto';
import { startAtsBSandbox, type RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import { type ConnectorSnapshot, Queue } from '@connector/contracts';
import { RabbitConnection, RpcClient } from '@connector/messaging';
import { connectorSnapshot } from '@connector/ats-testing';
import {
  createSuiteInfrastructure,
  rabbitUrl,
  startService,
  type ServiceProcess,
  TestBroker,
  type TestDatabase,
  type SuiteInfrastructure,
  requestRun,
  tapVacancyRuns,
  type VacancyRunTaps,
} from '@connector/testing';
import {
  authorizeAtsB,
  type ConnectorDirectoryStub,
  startAuthGateway,
  startConnectorDirectoryStub,
} from '@connector/service-stubs';

const ACCOUNT = 'acct_vacancies_ats_b';
const JOBS = 600;

/** What connector-registry would answer; the registry itself is not part of this test. */
const snapshots = new Map<string, ConnectorSnapshot>();

/**
 * vacancy-sync against the ATS-B sandbox in its vendor-faithful form (isPublic an Integer, to-one
 * associations as ids unless asked, empty fields null or absent), over real HTTP, RabbitMQ and Postgres.
 */
describe('vacancy-sync with ATS-B as its vendor defines it', () => {
  let database: TestDatabase;
  let atsB: RunningAtsBSandbox;
  let gateway: ServiceProcess;
  let worker: ServiceProcess;
  let registryStub: ConnectorDirectoryStub;
  let connection: RabbitConnection;
  let rpc: RpcClient;
  let broker: TestBroker;
  let taps: VacancyRunTaps;
  let infra: SuiteInfrastructure;

  async function atsBConnector(): Promise<string> {
    const connectorId = randomUUID();
    await authorizeAtsB(rpc, ACCOUNT, connectorId);
    snapshots.set(
      connectorId,
      connectorSnapshot({
        id: connectorId,
        accountId: ACCOUNT,
        type: 'ats-b',
        config: { routine: 'api-oauth' },
        ownDailyLimit: false,
      }),
    );
    return connectorId;
  }

  /** Publishes run.requested like the registry (no mode: the run's default) and waits for its run.completed. */
  const run = (connectorId: string) => requestRun(broker, taps, { accountId: ACCOUNT, connectorId });

  /** Open, published (isPublic 1) and not deleted, read from the sandbox's own records. */
  function liveJobIds(): string[] {
    const ids: string[] = [];
    for (let id = 1; id <= atsB.state.jobs.size; id++) {
      const job = atsB.state.job(id);
      if (job && job.isOpen && job.isPublic === 1 && !job.isDeleted) ids.push(String(id));
    }
    return ids.sort();
  }

  beforeAll(async () => {
    infra = await createSuiteInfrastructure('e2e_vacancy_sync_ats_b');
    ({ database } = infra);
    atsB = await startAtsBSandbox({ seed: { jobs: JOBS, seed: 11 } });

    broker = await TestBroker.connect();
    await broker.deleteQueuesIfPresent([Queue.ConnectorRegistry, Queue.VacancySync, Queue.AuthGateway]);
    taps = await tapVacancyRuns(broker);
    registryStub = await startConnectorDirectoryStub(snapshots);

    const env = { DATABASE_URL: database.url, RABBITMQ_URL: rabbitUrl() };
    gateway = await startAuthGateway(atsB, env);
    worker = await startService('vacancy-sync', { ...env, SCHEDULER_TICK_MS: '500' });
    connection = new RabbitConnection({ url: rabbitUrl(), name: 'e2e-vacancy-sync-ats-b' });
    rpc = new RpcClient(connection, 'connector-registry');
  }, 180_000);

  afterAll(async () => {
    await rpc?.close();
    await connection?.close();
    await worker?.stop();
    await gateway?.stop();
    await registryStub?.close();
    await broker?.close();
    await atsB?.close();
    await infra?.drop();
  }, 60_000);

  describe('one connector, run after run', () => {
    let connectorId: string;

    beforeAll(async () => {
      connectorId = await atsBConnector();
    });

    it('publishes every open, public job (isPublic 1), with its company', async () => {
      const sample = atsB.state.job(1)!;
      expect(typeof sample.isPublic).toBe('number'); // the sandbox speaks the vendor's data model
      const live = liveJobIds();
      expect(live.length).toBeGreaterThan(JOBS / 2);

      const first = await run(connectorId);
      expect(first.completed).toMatchObject({
        status: 'succeeded',
        counts: { upserted: live.length, closed: 0 },
      });
      expect(first.upserts.map((u) => u.externalId).sort()).toEqual(live);
      for (const upsert of first.upserts) {
        const job = atsB.state.job(Number(upsert.externalId))!;
        expect(upsert).toMatchObject({ connectorId, atsType: 'ats-b', title: job.title ?? '' });
        expect(upsert.company?.name).toBe(job.clientCorporation?.name ?? undefined);
      }
      expect(first.closures).toEqual([]);
    });

    it('closes a closed and a deleted job and re-publishes a retitled one in the next default run', async () => {
      const [closing, deleting, retitling] = liveJobIds();
      atsB.state.closeJob(Number(closing));
      atsB.state.closeJob(Number(deleting), { deleted: true });
      atsB.state.updateJob(Number(retitling), { title: 'Retitled in the ATS' });
      atsB.state.resetCalls();

      const next = await run(connectorId);
      expect(next.completed.status).toBe('succeeded');
      expect(next.upserts.map((u) => [u.externalId, u.title])).toEqual([[retitling, 'Retitled in the ATS']]);
      expect(next.closures.map((c) => c.externalId).sort()).toEqual([closing, deleting].sort());
      expect(next.closures.every((c) => c.connectorId === connectorId)).toBe(true);
      expect(next.completed.counts).toMatchObject({ upserted: 1, closed: 2 });
      // A changes-only run: one listing page and one read of the three changed jobs, not the whole catalogue.
      expect(atsB.state.callCounts()).toMatchObject({ 'GET search/JobOrder': 1, 'GET entity/JobOrder': 1 });
    });

    it('publishes nothing when nothing changed since', async () => {
      const again = await run(connectorId);
      expect(again.completed.status).toBe('succeeded');
      expect(again.upserts).toEqual([]);
      expect(again.closures).toEqual([]);
    });
  });
});
