import { atsRegistry } from '@connector/ats-registry';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { startAtsASandbox, type RunningAtsASandbox, VACANCY_STATUSES } from '@connector/ats-a-sandbox';
import { AtsSystems, type ClientOptions, type ConnectorDirectory } from '@connector/ats-client-factory';
import type { VacancyPartDeps } from '@connector/ats-core';
import { outboundGuard } from '@connector/ats-http';
import { AtsAClient, AtsAVacancySource, atsAVacancyLiveness } from '@connector/ats-a';
import { AtsBVacancySource } from '@connector/ats-b';
import { type EventEnvelope, RoutingKey } from '@connector/contracts';
import type { MessagePublisher } from '@connector/messaging';
import { migratedDataSource } from '@connector/persistence/testing';
import { connectorSnapshot } from '@connector/ats-testing';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { EventFeedService } from '../events/event-feed.service';
import { VacancySources } from '../sources/vacancy-sources';
import { VacancyStateRepository } from '../vacancies/vacancy-state.repository';
import { SERVICE_NAME, type VacancySyncConfig } from '../vacancy-sync.config';
import { VACANCY_SYNC_SCHEMA } from '../vacancy-sync.schema';
import { SyncRunRepository } from './sync-run.repository';
import { SyncRunService } from './sync-run.service';

const ACCOUNT = 'acct_recheck';
const OWNER = 'int-spec';
const OPEN_STATUS_IDS = VACANCY_STATUSES.filter((s) => ['Open', 'Live'].includes(s.Description)).map(
  (s) => s.Id,
);

/**
 * Runs of one ATS-A connector against the sandbox over HTTP, with a real database and the events captured
 * instead of sent: a full listing pages by page number, so a vacancy closed in the ATS while the run is
 * between two pages moves every later one back a place, and one live vacancy is never listed.
 */
describe(`${SyncRunService.name} (ATS-A full run)`, () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let sandbox: RunningAtsASandbox;
  let runs: SyncRunRepository;
  let service: SyncRunService;
  const events: EventEnvelope[] = [];
  const connectorId = randomUUID();
  const snapshot = () =>
    connectorSnapshot({
      id: connectorId,
      accountId: ACCOUNT,
      type: 'ats-a',
      config: { baseUrl: sandbox.url },
    });

  beforeAll(async () => {
    database = await createTestDatabase('vacancy_recheck');
    dataSource = await migratedDataSource(database.url, { service: SERVICE_NAME, ...VACANCY_SYNC_SCHEMA });
    sandbox = await startAtsASandbox({ seed: { vacancies: 450, seed: 3 } });

    let token: string | undefined;
    const clients = {
      client: (_connector: unknown, options: ClientOptions) =>
        new AtsAClient({
          baseUrl: sandbox.url,
          guard: outboundGuard('loopback'),
          hooks: { afterCall: ({ endpoint, status }) => options.onCall?.(endpoint, status) },
          token: async () => (token ??= await newToken(sandbox.url)),
        }),
    } as unknown as VacancyPartDeps<never>;
    const directory = { get: async () => snapshot() } as unknown as ConnectorDirectory;
    const publisher = {
      publish: async (_exchange: string, event: EventEnvelope) => void events.push(event),
    } as unknown as MessagePublisher;
    const config = { RUN_LEASE_TTL_MS: 60_000, RUN_INLINE_WAIT_MAX_MS: 0 } as VacancySyncConfig;
    runs = new SyncRunRepository(dataSource);
    const sources = new VacancySources(
      atsRegistry,
      new AtsAVacancySource(clients),
      new AtsBVacancySource(clients),
    );
    service = new SyncRunService(
      runs,
      new VacancyStateRepository(dataSource),
      sources,
      directory,
      publisher,
      config,
      // ATS-A has no event feed.
      { ensure: async () => undefined } as unknown as EventFeedService,
      new AtsSystems(atsRegistry),
      atsRegistry,
    );
    await runs.registerConnector(connectorId, ACCOUNT);
  });

  afterAll(async () => {
    await sandbox?.close();
    await dataSource?.destroy();
    await database?.drop();
  });

  /** One full run to its end; what it published. */
  async function fullRun() {
    const runId = randomUUID();
    await runs.enqueue({
      runId,
      connectorId,
      accountId: ACCOUNT,
      trigger: 'requested',
      requestedMode: 'full',
    });
    expect(await runs.tryLease(connectorId, OWNER, 60_000)).toBe(true);
    const head = (await runs.headRun(connectorId))!;
    // The connector's only open run: its end gives the lease back.
    expect(await service.execute(head, OWNER, () => false)).toBe('done');
    expect(await runs.tryLease(connectorId, 'another-process', 60_000)).toBe(true);
    await runs.releaseLease(connectorId, 'another-process');
    const mine = events.splice(0); // this run's: runs go one at a time
    const ofType = (type: string) => mine.filter((e) => e.type === type).map((e) => e.data);
    return {
      completed: ofType(RoutingKey.RunCompleted)[0] as { status: string; counts: Record<string, number> },
      upserted: ofType(RoutingKey.VacancyUpserted).map((d) => (d as { externalId: string }).externalId),
      closed: ofType(RoutingKey.VacancyClosed).map((d) => (d as { externalId: string }).externalId),
    };
  }

  /** The ids a full listing asks for (open status, on the careers site), in the sandbox's order. */
  function listedIds(): number[] {
    const ids: number[] = [];
    for (let id = 1; id <= sandbox.state.vacancyCount(); id++) {
      const v = sandbox.state.getVacancy(id);
      if (v && v.IncludeOnSite && OPEN_STATUS_IDS.includes(v.VacancyStatus.Id)) ids.push(id);
    }
    return ids;
  }

  const isLive = (id: number) => {
    const v = sandbox.state.getVacancy(id);
    return v !== undefined && atsAVacancyLiveness(v, OPEN_STATUS_IDS, new Date()).live;
  };

  it('closes no live vacancy when one listed on page 1 is closed before page 2 is read', async () => {
    const listed = listedIds();
    expect(listed.length).toBeGreaterThan(200); // three pages of 100
    const closing = listed[3]; // on page 1
    const missed = listed[100]; // first of page 2: page 1's closure moves it onto page 1, already read
    // Both advertised with no end (whatever the seed gave them), so both are published.
    for (const id of [closing, missed]) {
      sandbox.state.updateVacancy(id, { DatePosted: '2020-01-01', AdvertisingEndDate: null });
    }
    const first = await fullRun();
    expect(first.completed.status).toBe('succeeded');
    expect(first.closed).toEqual([]);
    expect(first.upserted).toEqual(expect.arrayContaining([String(closing), String(missed)]));
    // Deleted before the run: not listed, and not found when asked again either.
    const deleted = [...listed].reverse().find(isLive)!;
    sandbox.state.removeVacancy(deleted);

    // A recruiter closes a vacancy of page 1 right after the ATS answered page 1, before page 2 is asked for.
    const engine = sandbox.state.searchEngine;
    const search = engine.search.bind(engine);
    let armed = true;
    engine.search = ((entity, source, query) => {
      const answer = search(entity, source, query);
      if (armed && entity === 'vacancies' && query.requestedPage === 1) {
        armed = false;
        sandbox.state.closeVacancy(closing);
      }
      return answer;
    }) as typeof engine.search;
    sandbox.state.resetCalls();
    let second: Awaited<ReturnType<typeof fullRun>>;
    try {
      second = await fullRun();
    } finally {
      engine.search = search;
    }
    expect(armed).toBe(false);

    expect(second.completed.status).toBe('succeeded');
    // Not the missed one. Nor the one closed mid-run: this run listed it live (its change is the next run's).
    expect(second.closed).toEqual([String(deleted)]);
    expect(second.upserted).toEqual([]); // the missed one was asked about again: live and unchanged
    expect(second.completed.counts).toMatchObject({ closed: 1, upserted: 0 });
    // Every vacancy live in the ATS is still live on the platform.
    const rows = (await dataSource.query(
      `SELECT external_id FROM vacancy_state WHERE connector_id = $1 AND live`,
      [connectorId],
    )) as Array<{ external_id: string }>;
    const liveNow = listedIds().filter(isLive);
    expect(liveNow).toContain(missed);
    expect(rows.map((r) => Number(r.external_id)).sort((a, b) => a - b)).toEqual(
      [...liveNow, closing].sort((a, b) => a - b),
    );
    // The re-check is one more vacancies search (up to 100 absent ids a call), on the run's count.
    const pages = Math.ceil((listed.length - 2) / 100);
    expect(sandbox.state.callCounts().byEndpoint['POST /api/vacancies/search']).toBe(pages + 1);
  });
});

async function newToken(url: string): Promise<string> {
  const response = await fetch(`${url}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: 'demo-client',
      client_secret: 'demo-secret',
    }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}
