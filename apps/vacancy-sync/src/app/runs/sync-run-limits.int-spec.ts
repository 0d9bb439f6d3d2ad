import { atsRegistry } from '@connector/ats-registry';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { DataSource } from 'typeorm';
import { AtsSystems, type ClientOptions, type ConnectorDirectory } from '@connector/ats-client-factory';
import { AtsAClient, AtsAVacancySource } from '@connector/ats-a';
import type { VacancyPartDeps } from '@connector/ats-core';
import { outboundGuard } from '@connector/ats-http';
import { type EventEnvelope, type RunCompletedDto, RoutingKey } from '@connector/contracts';
import type { MessagePublisher } from '@connector/messaging';
import { migratedDataSource } from '@connector/persistence/testing';
import { connectorSnapshot } from '@connector/ats-testing';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import type { EventFeedService } from '../events/event-feed.service';
import { VacancySources } from '../sources/vacancy-sources';
import { VacancyStateRepository } from '../vacancies/vacancy-state.repository';
import { SERVICE_NAME, type VacancySyncConfig } from '../vacancy-sync.config';
import { VACANCY_SYNC_SCHEMA } from '../vacancy-sync.schema';
import { SyncRunRepository } from './sync-run.repository';
import { SyncRunService } from './sync-run.service';

const ACCOUNT = 'acct_hostile';
const OWNER = 'int-spec';
const OPEN = { Id: 31, Description: 'Open' };
const MAX_PAGES = 5;
const MAX_BYTES = 256 * 1024;

/** How the hostile host answers `vacancies/search`. */
type Behaviour =
  | 'endless-pages' // every page a live vacancy, and a billion pages announced
  | 'huge-answer' // a chunked answer that never ends
  | 'too-many-records' // 10 000 records for a page of 100
  | 'slow-pages'; // endless pages, each after 300 ms

/**
 * A customer's ATS-A host that lies (a small HTTP server speaking ATS-A's protocol, here so that each lie is
 * plain to read), and runs of a connector on it with a real database: each bound ends the run failed with its
 * code, keeping what it published and closing nothing, and never holds the run for the host's whole story.
 */
describe(`${SyncRunService.name} (a hostile ATS-A host)`, () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let host: Server;
  let hostUrl: string;
  let runs: SyncRunRepository;
  let behaviour: Behaviour = 'endless-pages';
  let searches = 0;
  let bytesSent = 0;
  const events: EventEnvelope[] = [];
  const config = {
    RUN_LEASE_TTL_MS: 60_000,
    RUN_INLINE_WAIT_MAX_MS: 0,
    RUN_MAX_PAGES: MAX_PAGES,
    RUN_DEADLINE_MINUTES: 60,
    ATS_MAX_RESPONSE_BYTES: MAX_BYTES,
  } as VacancySyncConfig;

  beforeAll(async () => {
    database = await createTestDatabase('vacancy_hostile');
    dataSource = await migratedDataSource(database.url, { service: SERVICE_NAME, ...VACANCY_SYNC_SCHEMA });
    host = createServer((req, res) => void answer(req, res));
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostUrl = `http://127.0.0.1:${(host.address() as { port: number }).port}`;
    runs = new SyncRunRepository(dataSource);
  });

  afterAll(async () => {
    host?.closeAllConnections();
    await new Promise((resolve) => host?.close(resolve));
    await dataSource?.destroy();
    await database?.drop();
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = JSON.parse((await req.toArray()).join('') || '{}') as {
      Paging?: { RequestedPage: number; RecordsPerPage: number };
    };
    const json = (value: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (req.url === '/api/options/dropdown/50') return void json([OPEN, { Id: 7, Description: 'Live' }]);
    if (req.url !== '/api/vacancies/search') return void json({ CurrentPage: 1, TotalPages: 0, Records: [] });
    searches++;
    const page = body.Paging?.RequestedPage ?? 1;
    switch (behaviour) {
      case 'huge-answer': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(16 * 1024, ' ');
        const pump = () => {
          while (!res.destroyed && bytesSent < 64 * 1024 * 1024) {
            bytesSent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        return void pump();
      }
      case 'too-many-records':
        return void json({
          CurrentPage: page,
          TotalPages: 1,
          Records: Array.from({ length: 1_000 }, (_, i) => vacancy(i + 1)),
        });
      case 'slow-pages':
        await new Promise((resolve) => setTimeout(resolve, 300));
        return void json({ CurrentPage: page, TotalPages: 1_000_000, Records: [vacancy(page)] });
      case 'endless-pages':
        return void json({ CurrentPage: page, TotalPages: 1_000_000_000, Records: [vacancy(page)] });
    }
  }

  /** One run of a new connector on the host, to its end; what it published and how it ended. */
  async function runOnce(overrides: Partial<VacancySyncConfig> = {}) {
    const connectorId = randomUUID();
    const snapshot = connectorSnapshot({
      id: connectorId,
      accountId: ACCOUNT,
      type: 'ats-a',
      config: { baseUrl: hostUrl },
    });
    const clients = {
      client: (_connector: unknown, options: ClientOptions) =>
        new AtsAClient({
          baseUrl: hostUrl,
          guard: outboundGuard('loopback'),
          quickRetry: false,
          ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}),
          token: async () => 'hostile-token',
        }),
    } as unknown as VacancyPartDeps<never>;
    const service = new SyncRunService(
      runs,
      new VacancyStateRepository(dataSource),
      new VacancySources(atsRegistry, new AtsAVacancySource(clients)),
      { get: async () => snapshot } as unknown as ConnectorDirectory,
      {
        publish: async (_x: string, event: EventEnvelope) => void events.push(event),
      } as unknown as MessagePublisher,
      { ...config, ...overrides },
      { ensure: async () => undefined } as unknown as EventFeedService,
      new AtsSystems(atsRegistry),
      atsRegistry,
    );
    await runs.registerConnector(connectorId, ACCOUNT);
    const runId = randomUUID();
    await runs.enqueue({
      runId,
      connectorId,
      accountId: ACCOUNT,
      trigger: 'requested',
      requestedMode: 'full',
    });
    expect(await runs.tryLease(connectorId, OWNER, 60_000)).toBe(true);
    searches = 0;
    bytesSent = 0;
    events.splice(0);
    const started = Date.now();
    const outcome = await service.execute((await runs.headRun(connectorId))!, OWNER, () => false);
    const ofType = (type: string) => events.filter((e) => e.type === type).map((e) => e.data);
    const row = (await dataSource.query(`SELECT status, error FROM sync_run WHERE run_id = $1`, [
      runId,
    ])) as Array<{
      status: string;
      error: string | null;
    }>;
    return {
      outcome,
      seconds: (Date.now() - started) / 1000,
      row: row[0],
      completed: ofType(RoutingKey.RunCompleted)[0] as RunCompletedDto,
      upserted: ofType(RoutingKey.VacancyUpserted).length,
      closed: ofType(RoutingKey.VacancyClosed).length,
    };
  }

  it('reads at most RUN_MAX_PAGES of an endless listing, then fails with RUN_PAGE_LIMIT, keeping them', async () => {
    behaviour = 'endless-pages';
    const run = await runOnce();
    expect(run.outcome).toBe('done');
    expect(run.completed.status).toBe('failed');
    expect(run.completed.warnings).toEqual([
      { code: 'RUN_PAGE_LIMIT', message: expect.stringContaining(`more than ${MAX_PAGES} pages`) },
    ]);
    expect(run.row.status).toBe('failed');
    // Every page it read was published, nothing closed, and not one page asked for beyond the bound.
    expect(run.upserted).toBe(MAX_PAGES);
    expect(run.completed.counts).toMatchObject({ upserted: MAX_PAGES, closed: 0 });
    expect(run.closed).toBe(0);
    expect(searches).toBe(MAX_PAGES);
  });

  it('drops an endless answer at ATS_MAX_RESPONSE_BYTES and fails with ATS_ANSWER_TOO_LARGE, at once', async () => {
    behaviour = 'huge-answer';
    const run = await runOnce();
    expect(run.completed.status).toBe('failed');
    expect(run.completed.warnings).toEqual([
      { code: 'ATS_ANSWER_TOO_LARGE', message: expect.stringContaining('larger than a run reads') },
    ]);
    // Not retried (the same answer would come again), and not read to its end.
    expect(searches).toBe(1);
    expect(bytesSent).toBeLessThan(32 * 1024 * 1024);
  });

  it('refuses a page with far more records than asked for: ATS_ANSWER_TOO_MANY_RECORDS, nothing published', async () => {
    behaviour = 'too-many-records';
    const run = await runOnce();
    expect(run.completed.status).toBe('failed');
    expect(run.completed.warnings?.map((w) => w.code)).toEqual(['ATS_ANSWER_TOO_MANY_RECORDS']);
    expect(run.upserted).toBe(0);
    expect(searches).toBe(1);
  });

  it('stops a run past RUN_DEADLINE_MINUTES between pages: RUN_DEADLINE, keeping what it published', async () => {
    behaviour = 'slow-pages';
    // A 1.2 s deadline (the setting is in minutes; a test cannot wait one) over pages of 300 ms each.
    const run = await runOnce({ RUN_MAX_PAGES: 1_000_000, RUN_DEADLINE_MINUTES: 0.02 });
    expect(run.completed.status).toBe('failed');
    expect(run.completed.warnings).toEqual([
      { code: 'RUN_DEADLINE', message: expect.stringContaining('longer than 0.02 minutes') },
    ]);
    expect(run.upserted).toBeGreaterThanOrEqual(1);
    expect(searches - run.upserted).toBeLessThanOrEqual(1); // a page read ahead is not published
    expect(run.completed.counts.upserted).toBe(run.upserted);
    expect(run.closed).toBe(0);
    expect(run.seconds).toBeLessThan(10);
  });
});

/** A live ATS-A vacancy as a listing page carries it. */
function vacancy(id: number): Record<string, unknown> {
  return {
    VacancyId: id,
    Title: `Vacancy ${id}`,
    VacancyStatus: OPEN,
    IncludeOnSite: true,
    ModificationDate: '2026-01-01T00:00:00Z',
  };
}
