import { atsRegistry } from '@connector/ats-registry';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { startAtsBSandbox, type RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import { driveLoginForm } from '@connector/ats-b-sandbox/testing';
import { AtsSystems, type ClientOptions, type ConnectorDirectory } from '@connector/ats-client-factory';
import type { VacancyPartDeps } from '@connector/ats-core';
import { AtsBClient, AtsBOAuthClient, type AtsBSession, AtsBVacancyEventSource } from '@connector/ats-b';
import { outboundGuard } from '@connector/ats-http';
import { connectorSnapshot } from '@connector/ats-testing';
import {
  type ConnectorSnapshot,
  type EventEnvelope,
  RoutingKey,
  type VacancyClosedDto,
  type VacancyUpsertedDto,
} from '@connector/contracts';
import type { MessagePublisher } from '@connector/messaging';
import { migratedDataSource } from '@connector/persistence/testing';
import { createTestDatabase, type TestDatabase } from '@connector/testing';
import { SyncRunRepository } from '../runs/sync-run.repository';
import { VacancyStateRepository } from '../vacancies/vacancy-state.repository';
import { SERVICE_NAME, type VacancySyncConfig } from '../vacancy-sync.config';
import { VACANCY_SYNC_SCHEMA } from '../vacancy-sync.schema';
import { subscriptionIdOf } from './event-feed';
import { EventFeedService } from './event-feed.service';
import { VacancyEventFeedRepository } from './vacancy-event-feed.repository';
import { VacancyEventSources } from './vacancy-event-sources';

const ACCOUNT = 'acct_events';
const SANDBOX = outboundGuard('loopback');

/**
 * The event feed of one ATS-B connector against the sandbox over HTTP and a real database, with two feed
 * services standing for two processes and the published events captured instead of sent.
 */
describe(`${EventFeedService.name} (ATS-B subscriptions)`, () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let sandbox: RunningAtsBSandbox;
  let repository: VacancyEventFeedRepository;
  let one: EventFeedService;
  let two: EventFeedService;
  const published: EventEnvelope[] = [];
  const calls: string[] = [];
  /** Set to make the next publish fail: a crash between storing a batch's requestId and acting on it. */
  let failNextPublish = false;
  const connectorId = randomUUID();
  /** What the registry answers on top of the connector below (a later version of its options). */
  let changed: Partial<ConnectorSnapshot> = {};
  const snapshot = (): ConnectorSnapshot => ({
    ...connectorSnapshot({
      id: connectorId,
      accountId: ACCOUNT,
      type: 'ats-b',
      config: { routine: 'api-oauth' },
      options: { eventPollSeconds: 1 },
    }),
    ...changed,
  });

  const upserts = () =>
    published.filter((e) => e.type === RoutingKey.VacancyUpserted).map((e) => e.data as VacancyUpsertedDto);
  const closures = () =>
    published
      .filter((e) => e.type === RoutingKey.VacancyClosed)
      .map((e) => (e.data as VacancyClosedDto).externalId);
  const feed = async () => (await repository.feed(connectorId))!;
  /** Makes the feed due now (the test does not wait for its poll period). */
  const due = () =>
    dataSource.query(
      `UPDATE vacancy_event_feed SET next_read_at = now() - interval '1 second' WHERE connector_id = $1`,
      [connectorId],
    );
  /** What a process's poller does on a tick: claims due feeds and reads them. */
  async function tickBoth(): Promise<{ one: number; two: number }> {
    const [a, b] = await Promise.all([one.claimDue(10), two.claimDue(10)]);
    await Promise.all([...a.map((f) => one.poll(f)), ...b.map((f) => two.poll(f))]);
    return { one: a.length, two: b.length };
  }

  beforeAll(async () => {
    database = await createTestDatabase('vacancy_events');
    dataSource = await migratedDataSource(database.url, { service: SERVICE_NAME, ...VACANCY_SYNC_SCHEMA });
    sandbox = await startAtsBSandbox({ seed: { jobs: 20, seed: 7 } });

    const oauth = new AtsBOAuthClient(
      {
        clientId: 'platform-client',
        clientSecret: 'platform-secret',
        redirectUri: 'http://127.0.0.1:9/oauth/ats-b/callback',
        oauthUrl: sandbox.oauthUrl,
        restLoginUrl: sandbox.restLoginUrl,
      },
      { guard: SANDBOX },
    );
    const code = new URL(
      await driveLoginForm(oauth.authorizeUrl('s'), { username: 'recruiter', password: 'recruiter-pass' }),
    ).searchParams.get('code')!;
    let tokens = await oauth.exchangeCode(code);
    let session: AtsBSession | undefined;
    const sessionOf = async ({ rejected }: { rejected?: string }) => {
      if (!session || session.bhRestToken === rejected) {
        if (session) tokens = await oauth.refresh(tokens.refreshToken);
        session = await oauth.login(tokens.accessToken);
      }
      return session;
    };
    const clients = {
      client: (_connector: unknown, options: ClientOptions) =>
        new AtsBClient({
          guard: SANDBOX,
          session: sessionOf,
          hooks: {
            afterCall: ({ endpoint, status }) => {
              calls.push(endpoint);
              options.onCall?.(endpoint, status);
            },
          },
        }),
    } as unknown as VacancyPartDeps<AtsBClient>;
    const directory = { get: async () => snapshot() } as unknown as ConnectorDirectory;
    const publisher = {
      publish: async (_exchange: string, event: EventEnvelope) => {
        if (failNextPublish) {
          failNextPublish = false;
          throw new Error('the process died before publishing');
        }
        published.push(event);
      },
    } as unknown as MessagePublisher;
    const config = {
      RUN_LEASE_TTL_MS: 60_000,
      EVENT_POLL_MIN_SECONDS: 1,
      EVENT_FEED_CRASH_AFTER_STORE: '',
    } as VacancySyncConfig;
    repository = new VacancyEventFeedRepository(dataSource);
    const service = () =>
      new EventFeedService(
        repository,
        new VacancyEventSources(atsRegistry, new AtsBVacancyEventSource(clients)),
        new VacancyStateRepository(dataSource),
        directory,
        publisher,
        config,
        new AtsSystems(atsRegistry),
        atsRegistry,
      );
    one = service();
    two = service();
    await new SyncRunRepository(dataSource).registerConnector(connectorId, ACCOUNT, 3_600);
  });

  afterAll(async () => {
    await sandbox?.close();
    await dataSource?.destroy();
    await database?.drop();
  });

  it('subscribes a connected connector under a name derived from it, read by one process at a time', async () => {
    await one.connected(connectorId, ACCOUNT);
    expect(await feed()).toMatchObject({ mode: 'polling', subscriptionId: subscriptionIdOf(connectorId) });
    const claimed = await tickBoth();
    expect(claimed.one + claimed.two).toBe(1); // claimed by one of the two processes
    expect(await feed()).toMatchObject({ mode: 'events', failures: 0 });
    expect(sandbox.state.events.list().map((s) => s.subscriptionId)).toEqual([subscriptionIdOf(connectorId)]);
    // Made again after a restart (the same name), the subscription is the same one.
    expect((await one.ensure(snapshot()))?.subscriptionId).toBe(subscriptionIdOf(connectorId));
  });

  it('reads an empty subscription with exactly one ATS call', async () => {
    await due();
    calls.length = 0;
    const claimed = await tickBoth();
    expect(claimed.one + claimed.two).toBe(1);
    expect(calls).toEqual(['GET event/subscription']);
    expect((await feed()).lastReadAt).toBeDefined();
  });

  it('publishes a created, retitled, closed and hard-deleted job order once each, claimed by one process', async () => {
    const created = sandbox.state.addJob({ title: 'Events engineer' });
    await due();
    let claimed = await tickBoth();
    expect(claimed.one + claimed.two).toBe(1);
    expect(upserts().map((u) => [u.externalId, u.title])).toEqual([[String(created.id), 'Events engineer']]);

    const doomed = sandbox.state.addJob({ title: 'Short-lived' });
    sandbox.state.updateJob(created.id, { title: 'Senior events engineer' });
    await due();
    claimed = await tickBoth();
    expect(claimed.one + claimed.two).toBe(1);
    expect(upserts().map((u) => [u.externalId, u.title])).toEqual([
      [String(created.id), 'Events engineer'],
      [String(created.id), 'Senior events engineer'],
      [String(doomed.id), 'Short-lived'],
    ]);

    sandbox.state.closeJob(created.id);
    sandbox.state.removeJob(doomed.id);
    await due();
    await tickBoth();
    expect(closures().sort()).toEqual([String(created.id), String(doomed.id)].sort());
    expect(upserts()).toHaveLength(3);
    const f = await feed();
    expect(f.pendingRequestId).toBeUndefined();
    expect(f.lastEventAt).toBeDefined();
  });

  it('reads a batch again after a crash between storing its requestId and publishing: nothing lost or doubled', async () => {
    published.length = 0;
    const job = sandbox.state.addJob({ title: 'Survives a crash' });
    failNextPublish = true;
    await due();
    await tickBoth();
    expect(published).toEqual([]);
    const stored = await feed();
    expect(stored.pendingRequestId).toEqual(expect.any(Number));
    expect(sandbox.state.events.list()[0]?.queued).toBe(0); // read (removed) at the ATS: only the requestId has it

    calls.length = 0;
    await due();
    await tickBoth();
    expect(calls[0]).toBe('GET event/subscription');
    expect(upserts().map((u) => u.externalId)).toEqual([String(job.id)]);
    expect(await feed()).toMatchObject({ failures: 0, mode: 'events' });
    expect((await feed()).pendingRequestId).toBeUndefined();

    // Applied once more (the same change read again) it publishes nothing: the hash is unchanged.
    sandbox.state.updateJob(job.id, { title: 'Survives a crash' });
    await due();
    await tickBoth();
    expect(upserts()).toHaveLength(1);
  });

  it('falls back to polling when the ATS drops the subscription, then makes it again and asks for a full catch-up run', async () => {
    sandbox.state.dropSubscription(subscriptionIdOf(connectorId));
    await dataSource.query(
      `UPDATE sync_connector SET next_run_at = now() + interval '1 hour' WHERE connector_id = $1`,
      [connectorId],
    );
    await due();
    await tickBoth();
    const fallen = await feed();
    expect(fallen).toMatchObject({
      mode: 'polling',
      catchUp: true,
      reason: expect.stringContaining('no longer has'),
    });
    expect(await one.status(ACCOUNT, connectorId)).toMatchObject({ mode: 'polling', reason: fallen.reason });
    const [{ late }] = await dataSource.query(
      `SELECT next_run_at <= now() AS late FROM sync_connector WHERE connector_id = $1`,
      [connectorId],
    );
    expect(late).toBe(true); // the connector's next run comes now, not in an hour

    await due();
    await tickBoth();
    expect(await feed()).toMatchObject({ mode: 'events', catchUp: false, failures: 0 });
    const asked = await dataSource.query(
      `SELECT requested_mode, status FROM sync_run WHERE connector_id = $1`,
      [connectorId],
    );
    // Full: a hard delete the lost subscription missed is noticed only by a full listing.
    expect(asked).toEqual([{ requested_mode: 'full', status: 'queued' }]);
    expect(sandbox.state.events.list().map((s) => s.subscriptionId)).toEqual([subscriptionIdOf(connectorId)]);
  });

  it('waits out an ATS 429 without counting it against the feed', async () => {
    // The catch-up run asked for above ran (a connector with an open run is not polled).
    await dataSource.query(`UPDATE sync_run SET status = 'succeeded' WHERE connector_id = $1`, [connectorId]);
    sandbox.state.setFaults({ force429: 1 });
    await due();
    calls.length = 0;
    await tickBoth();
    expect(calls).toEqual(['GET event/subscription']); // read, and answered 429
    const waited = await feed();
    expect(waited).toMatchObject({ mode: 'events', failures: 0 });
    expect(waited.nextReadAt.getTime()).toBeGreaterThan(Date.now());
    sandbox.state.clearFaults();
  });

  it("takes up the poll period of options whose connector.changed was lost, never an older version's", async () => {
    // connector.changed applied version 3 (eventPollSeconds 1).
    await dataSource.query(`UPDATE sync_connector SET options_version = 3 WHERE connector_id = $1`, [
      connectorId,
    ]);
    try {
      // A poll whose snapshot is from before that change (a cache not yet dropped) does not undo it.
      changed = { version: 2, options: { eventPollSeconds: 30 } };
      await due();
      await tickBoth();
      expect((await feed()).pollSeconds).toBe(1);
      // Version 4 was saved but never announced: the poll that reads it takes its period up.
      changed = { version: 4, options: { eventPollSeconds: 30 } };
      await due();
      await tickBoth();
      const healed = await feed();
      expect(healed.pollSeconds).toBe(30);
      expect(healed.nextReadAt.getTime() - Date.now()).toBeGreaterThan(25_000);
    } finally {
      changed = {};
      await dataSource.query(`UPDATE sync_connector SET options_version = 0 WHERE connector_id = $1`, [
        connectorId,
      ]);
      await dataSource.query(`UPDATE vacancy_event_feed SET poll_seconds = 1 WHERE connector_id = $1`, [
        connectorId,
      ]);
    }
  });

  it('handles a feed unread for longer than the ATS keeps events as lost: polling, then a full catch-up run', async () => {
    const eightDays = `interval '8 days'`;
    await dataSource.query(
      `UPDATE vacancy_event_feed SET last_read_at = now() - ${eightDays}, since = now() - ${eightDays}
       WHERE connector_id = $1`,
      [connectorId],
    );
    await due();
    calls.length = 0;
    await tickBoth();
    expect(calls).toEqual([]); // not read: what it would answer may miss events the ATS dropped
    expect(await feed()).toMatchObject({
      mode: 'polling',
      catchUp: true,
      reason: expect.stringContaining('longer than the ATS keeps events (7 days)'),
    });
    await due();
    await tickBoth();
    expect(await feed()).toMatchObject({ mode: 'events', catchUp: false });
    const asked = await dataSource.query(
      `SELECT requested_mode FROM sync_run WHERE connector_id = $1 AND status = 'queued'`,
      [connectorId],
    );
    expect(asked).toEqual([{ requested_mode: 'full' }]);
    await dataSource.query(`UPDATE sync_run SET status = 'succeeded' WHERE connector_id = $1`, [connectorId]);
  });

  it("makes no subscription beyond the vendor's cap per customer, and says why", async () => {
    // 15 other connectors of the account on events (ATS_B_MAX_EVENT_SUBSCRIPTIONS, the event guide's 15).
    await dataSource.query(
      `INSERT INTO vacancy_event_feed (connector_id, account_id, subscription_id, mode, next_read_at)
       SELECT 'other-' || n, $1, 'vs-other-' || n, 'events', now() + interval '1 hour' FROM generate_series(1, 15) n`,
      [ACCOUNT],
    );
    try {
      sandbox.state.dropSubscription(subscriptionIdOf(connectorId));
      await due();
      await tickBoth(); // lost: polling
      await due();
      calls.length = 0;
      await tickBoth();
      expect(calls).toEqual([]); // no PUT the vendor would refuse
      expect(await feed()).toMatchObject({
        mode: 'polling',
        reason: expect.stringContaining('allows 15 event subscriptions per customer'),
      });
    } finally {
      await dataSource.query(`DELETE FROM vacancy_event_feed WHERE connector_id LIKE 'other-%'`);
    }
  });

  it('lets a run that has not listed yet make the subscription first, holding the lease (no catch-up run)', async () => {
    // Polling after the test above; the run about to list holds the connector.
    await dataSource.query(`DELETE FROM sync_run WHERE connector_id = $1`, [connectorId]);
    await dataSource.query(
      `INSERT INTO sync_run (run_id, connector_id, account_id, trigger, status) VALUES ($1, $2, $3, 'scheduled', 'queued')`,
      [randomUUID(), connectorId, ACCOUNT],
    );
    const made = await one.subscribeBeforeRun(await feed(), snapshot(), { priority: 'sync' });
    expect(made).toMatchObject({ mode: 'events', failures: 0 });
    expect(sandbox.state.events.list().map((s) => s.subscriptionId)).toEqual([subscriptionIdOf(connectorId)]);
    // The run itself lists after the subscription: no other run asked for.
    const runs = await dataSource.query(`SELECT count(*)::int AS n FROM sync_run WHERE connector_id = $1`, [
      connectorId,
    ]);
    expect(runs).toEqual([{ n: 1 }]);
    await dataSource.query(`UPDATE sync_run SET status = 'succeeded' WHERE connector_id = $1`, [connectorId]);
  });

  it('tries a feed whose connector a run holds again within seconds, not a poll period later', async () => {
    await dataSource.query(`UPDATE vacancy_event_feed SET poll_seconds = 60 WHERE connector_id = $1`, [
      connectorId,
    ]);
    await dataSource.query(
      `UPDATE sync_connector SET lease_owner = 'a-run', lease_until = now() + interval '1 minute'
       WHERE connector_id = $1`,
      [connectorId],
    );
    try {
      await due();
      calls.length = 0;
      const claimed = await tickBoth();
      expect(claimed.one + claimed.two).toBe(1);
      expect(calls).toEqual([]); // passed over: no ATS call while the run holds the connector
      const [{ wait }] = (await dataSource.query(
        `SELECT extract(epoch FROM next_read_at - now()) AS wait FROM vacancy_event_feed WHERE connector_id = $1`,
        [connectorId],
      )) as { wait: string }[];
      // Before, it waited a whole poll period (60 s) behind the run.
      expect(Number(wait)).toBeGreaterThan(0);
      expect(Number(wait)).toBeLessThanOrEqual(5);
    } finally {
      await dataSource.query(
        `UPDATE sync_connector SET lease_owner = NULL, lease_until = NULL WHERE connector_id = $1`,
        [connectorId],
      );
      await dataSource.query(`UPDATE vacancy_event_feed SET poll_seconds = 1 WHERE connector_id = $1`, [
        connectorId,
      ]);
    }
  });

  it('answers off while the connector is not active (disabled, waiting for authorization)', async () => {
    await dataSource.query(`UPDATE sync_connector SET active = false WHERE connector_id = $1`, [connectorId]);
    expect(await one.status(ACCOUNT, connectorId)).toEqual({ connectorId, mode: 'off' });
    await dataSource.query(`UPDATE sync_connector SET active = true WHERE connector_id = $1`, [connectorId]);
    expect(await one.status(ACCOUNT, connectorId)).toMatchObject({ connectorId, mode: 'events' });
  });

  it('answers off for a connector without a feed, and ends the subscription when the connector is disabled', async () => {
    expect(await one.status(ACCOUNT, 'no-such-connector')).toEqual({
      connectorId: 'no-such-connector',
      mode: 'off',
    });
    await one.ended(connectorId, ACCOUNT);
    expect(await repository.feed(connectorId)).toBeUndefined();
    expect(sandbox.state.events.list()).toEqual([]);
  });
});
