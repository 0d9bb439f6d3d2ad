import { randomUUID } from 'node:crypto';
import type { ConsumeMessage } from 'amqplib';
import { Client } from 'pg';
import { type RunningAtsASandbox, VACANCY_STATUSES } from '@connector/ats-a-sandbox';
import type { RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import { atsRegistry, defaultJobMapping } from '@connector/ats-registry';
import {
  createEvent,
  Exchange,
  RoutingKey,
  type RunCompletedDto,
  type VacancyUpsertedDto,
} from '@connector/contracts';
import {
  eventually,
  parseEvent,
  requestRun,
  runOutcome,
  tapVacancyRuns,
  type VacancyRunTaps,
} from '@connector/testing';
import { type TestWorld, testWorld } from '@connector/test-world';

/**
 * vacancy-sync end to end, for every registered ATS with `vacancies`: two vacancy-sync processes on one queue
 * (as in production) and auth-gateway, each ATS's sandbox through its test driver, real RabbitMQ and
 * Postgres; connector-registry stood in for by a responder on its two requests. What only one vendor does
 * (its statuses, its listing's calls) is in the blocks marked for it.
 */
const ACCOUNT = 'acct_vacancies';
const VACANCY_TYPES = atsRegistry.typesWith('vacancies');
const QUOTA_WINDOW_SECONDS = 5;

describe('vacancy-sync', () => {
  let world: TestWorld;
  let taps: VacancyRunTaps;
  let progress: ConsumeMessage[];

  const request = <T>(type: string, data: object, timeoutMs = 20_000) =>
    world.rpc().request<T>(createEvent(type, ACCOUNT, data), timeoutMs);
  /** Publishes run.requested like the registry and waits for its run.completed; returns what the run published. */
  const run = (connectorId: string, mode?: 'full' | 'incremental', timeoutMs = 60_000) =>
    requestRun(world.broker, taps, { accountId: ACCOUNT, connectorId, mode }, timeoutMs);
  const outcomeOf = (requestId: string, runId: string, timeoutMs = 60_000) =>
    runOutcome(taps, requestId, runId, timeoutMs);
  const connect = async (type: string, options: Record<string, unknown> = {}) =>
    (await world.connect(type, { accountId: ACCOUNT, options, ownDailyLimit: false })).id;
  const vacanciesOf = (type: string) => world.sandbox(type).vacancies!;
  const sorted = (ids: string[]) => [...ids].sort();

  beforeAll(async () => {
    world = await testWorld({
      name: 'e2e_vacancy_sync',
      services: ['auth-gateway', 'vacancy-sync', 'vacancy-sync'],
      // A rate-limit wait always parks the run (never sleeps in place).
      serviceEnv: { 'vacancy-sync': { SCHEDULER_TICK_MS: '500', RUN_INLINE_WAIT_MAX_MS: '0' } },
      registry: 'stub',
      sandboxes: VACANCY_TYPES,
      sandboxOptions: { vacancies: 450, seed: 3 },
    });
    taps = await tapVacancyRuns(world.broker);
    progress = await world.broker.tap(Exchange.Internal, RoutingKey.RunProgress);
  }, 180_000);

  afterAll(() => world?.close(), 60_000);

  describe.each(VACANCY_TYPES)('%s', (type) => {
    let connectorId: string;
    beforeAll(async () => {
      connectorId = await connect(type);
    });

    it('publishes every live vacancy once, with its company, then nothing when nothing changed', async () => {
      const vacancies = vacanciesOf(type);
      world.sandbox(type).resetCalls();
      const { completed: done, upserts, closures } = await run(connectorId);
      const live = vacancies.liveIds();
      expect(live.length).toBeGreaterThan(150);
      expect(done).toMatchObject({
        status: 'succeeded',
        counts: { fetched: live.length, upserted: live.length, unchanged: 0, closed: 0 },
      });
      expect(sorted(upserts.map((u) => u.externalId))).toEqual(live);
      expect(closures).toEqual([]);
      for (const upsert of upserts) {
        const { title, companyName } = vacancies.expected(upsert.externalId);
        expect(upsert).toMatchObject({ connectorId, atsType: type, title });
        expect(upsert.company?.name).toBe(companyName);
      }
      wireChecks[type]?.firstRun?.(world.sandbox(type).running, upserts, done);
      // progress was visible while it ran
      expect(progress.map((m) => parseEvent<{ runId: string }>(m).data.runId)).toContain(done.runId);

      const again = await run(connectorId);
      expect(again.completed.status).toBe('succeeded');
      expect(again.upserts).toEqual([]);
      expect(again.closures).toEqual([]);
    });

    it('closes one vacancy closed and one hidden in the ATS and upserts the one changed, in a default run', async () => {
      const vacancies = vacanciesOf(type);
      const [closing, hiding, changing] = vacancies.liveIds().slice(10, 13);
      vacancies.close(closing);
      vacancies.hide(hiding);
      vacancies.retitle(changing, 'A retitled vacancy');
      world.sandbox(type).resetCalls();
      const { completed: done, upserts, closures } = await run(connectorId); // default mode: changes only
      expect(upserts.map((u) => [u.externalId, u.title])).toEqual([[changing, 'A retitled vacancy']]);
      expect(sorted(closures.map((c) => c.externalId))).toEqual(sorted([closing, hiding]));
      expect(closures.every((c) => c.connectorId === connectorId)).toBe(true);
      expect(done.counts).toMatchObject({ upserted: 1, closed: 2 });
      wireChecks[type]?.changesRun?.(world.sandbox(type).running);
    });

    it('publishes a closed vacancy again when it is open again', async () => {
      const vacancies = vacanciesOf(type);
      const id = vacancies.liveIds()[20];
      vacancies.close(id);
      const closedRun = await run(connectorId);
      expect(closedRun.closures.map((c) => c.externalId)).toEqual([id]);
      vacancies.reopen(id);
      const reopened = await run(connectorId);
      expect(reopened.upserts.map((u) => u.externalId)).toEqual([id]);
      expect(reopened.closures).toEqual([]);
    });

    it('closes a vacancy deleted in the ATS on the next full listing, by its absence', async () => {
      const vacancies = vacanciesOf(type);
      const id = vacancies.liveIds()[5];
      vacancies.remove(id);
      const { completed: done, upserts, closures } = await run(connectorId, 'full');
      expect(closures).toEqual([{ connectorId, externalId: id }]);
      expect(upserts).toEqual([]);
      expect(done.counts).toMatchObject({ closed: 1, upserted: 0 });
    });

    it('answers a mapping preview without publishing anything', async () => {
      const before = taps.upserted.length;
      const mapping = {
        ...defaultJobMapping(type),
        fields: { ...defaultJobMapping(type).fields, title: { constant: 'Fixed' } },
      };
      const reply = await request<{ vacancies: VacancyUpsertedDto[] }>(RoutingKey.VacancyPreviewRequested, {
        connectorId,
        mapping,
        limit: 3,
      });
      expect(reply.vacancies).toHaveLength(3);
      expect(reply.vacancies.every((v) => v.title === 'Fixed')).toBe(true);
      expect(taps.upserted.length).toBe(before);
    });
  });

  describe.each(atsRegistry.typesWith('daily-budget').filter((t) => VACANCY_TYPES.includes(t)))(
    'the daily limit (%s)',
    (type) => {
      it('pauses at the limit and finishes after the reset, publishing each vacancy once', async () => {
        const sandbox = await world.startSandbox(type, {
          vacancies: 400,
          seed: 5,
          dailyLimit: { calls: 4, windowSeconds: QUOTA_WINDOW_SECONDS },
        });
        const { id: connectorId } = await world.connect(type, {
          accountId: ACCOUNT,
          sandbox,
          ownDailyLimit: false,
        });
        // Start right after a window reset so the run meets the limit in its middle, not at its start.
        const windowMs = QUOTA_WINDOW_SECONDS * 1000;
        await new Promise((resolve) => setTimeout(resolve, windowMs - (Date.now() % windowMs) + 50));
        sandbox.resetCalls();
        const started = Date.now();
        const { completed: done, upserts } = await run(connectorId, 'full', 90_000);
        const elapsedWindows = Math.ceil((Date.now() - started) / windowMs) + 1;

        expect(done.status).toBe('succeeded');
        expect(upserts.map((u) => u.externalId).sort()).toEqual(sandbox.vacancies!.liveIds()); // each once
        // It met the limit (more than one window) and waited for resets rather than retrying in a loop:
        // at most one refused call per window on top of what the windows allowed.
        expect(elapsedWindows).toBeGreaterThan(2);
        expect(sandbox.totalCalls()).toBeLessThanOrEqual(elapsedWindows * (4 + 1));
      }, 120_000);
    },
  );

  describe.each(VACANCY_TYPES.slice(0, 1))('two vacancy-sync processes (on %s)', (type) => {
    it('never run one connector twice at once, and publish each vacancy once', async () => {
      const connectorId = await connect(type);
      const requests = [randomUUID(), randomUUID()].map((runId) => ({
        runId,
        event: createEvent(RoutingKey.RunRequested, ACCOUNT, { connectorId, runId }),
      }));
      for (const { event } of requests)
        world.broker.publish(Exchange.Internal, RoutingKey.RunRequested, event);
      const outcomes = await Promise.all(requests.map(({ event, runId }) => outcomeOf(event.id, runId)));

      expect(outcomes.map((o) => o.completed.status)).toEqual(['succeeded', 'succeeded']);
      const all = outcomes.flatMap((o) => o.upserts.map((u) => u.externalId));
      expect(all.sort()).toEqual(vacanciesOf(type).liveIds());

      const rows = await query<{ started_at: Date; finished_at: Date }>(
        `SELECT started_at, finished_at FROM sync_run WHERE connector_id = $1 ORDER BY started_at`,
        [connectorId],
      );
      expect(rows).toHaveLength(2);
      expect(rows[0].finished_at.getTime()).toBeLessThanOrEqual(rows[1].started_at.getTime());
    });
  });

  describe.each(VACANCY_TYPES.slice(0, 1))('the schedule (on %s)', (type) => {
    it('runs a connector again by itself after its interval', async () => {
      const connectorId = await connect(type, { syncIntervalMinutes: 0.05 }); // 3 s
      const first = await run(connectorId);
      expect(first.completed.status).toBe('succeeded');
      const scheduled = await eventually(
        () =>
          taps.completed
            .map((m) => parseEvent<RunCompletedDto>(m).data)
            .find((d) => d.connectorId === connectorId && d.runId !== first.completed.runId),
        20_000,
        'a scheduled run',
      );
      expect(scheduled).toMatchObject({ status: 'succeeded', counts: { upserted: 0, closed: 0 } });
    }, 40_000);

    it('syncs a connector as soon as it is reported connected, before anyone presses Run', async () => {
      const connectorId = await connect(type);
      world.broker.publish(
        Exchange.ConnectorEvents,
        RoutingKey.ConnectorStatusChanged,
        createEvent(RoutingKey.ConnectorStatusChanged, ACCOUNT, { connectorId, status: 'connected' }),
      );
      const firstRun = await eventually(
        () =>
          taps.completed
            .map((m) => parseEvent<RunCompletedDto>(m).data)
            .find((d) => d.connectorId === connectorId),
        20_000,
        'a first scheduled run',
      );
      expect(firstRun).toMatchObject({ status: 'succeeded' });
      expect(firstRun.counts.upserted).toBe(vacanciesOf(type).liveIds().length);
      // The run says when the next scheduled one is due (the default 15 minutes: its slot, 1.5 to 16.5 min on).
      const nextIn = Date.parse(firstRun.nextRunAt ?? '') - Date.now();
      expect(nextIn).toBeGreaterThan(60_000);
      expect(nextIn).toBeLessThanOrEqual(16.5 * 60_000);
    }, 40_000);
  });

  // Per ATS: its statuses, its fields, its own ways of closing.
  describe('ats-a only', () => {
    let connectorId: string;
    const atsA = () => world.sandbox('ats-a').running as RunningAtsASandbox;
    const liveIds = () => vacanciesOf('ats-a').liveIds();
    const calls = () => atsA().state.callCounts().byEndpoint;
    beforeAll(async () => {
      connectorId = await connect('ats-a');
      await run(connectorId);
    });

    it('publishes exactly one upsert for the one vacancy changed in the ATS', async () => {
      const [id] = liveIds();
      atsA().state.updateVacancy(Number(id), { Requirements: 'A changed requirement' });
      const { completed: done, upserts } = await run(connectorId);
      expect(upserts.map((u) => u.externalId)).toEqual([id]);
      expect(upserts[0].requirements).toBe('A changed requirement');
      expect(done.counts.upserted).toBe(1);
    });

    it('closes a published vacancy once its last advertised day has passed, though its record did not change', async () => {
      // A live vacancy with an advertising end date, not changed lately (no listing will show it again).
      const id = liveIds().find((candidate) => {
        const v = atsA().state.getVacancy(Number(candidate))!;
        return v.AdvertisingEndDate !== null && Date.parse(v.ModificationDate) < Date.now() - 3_600_000;
      })!;
      const lastDay = atsA().state.getVacancy(Number(id))!.AdvertisingEndDate!.slice(0, 10);
      // The worker's clock cannot be moved: move the stored last day back to yesterday instead, as if the
      // days up to its end had passed, and the connector's last success to yesterday with it (a connector
      // looks for expired vacancies at its first run of a day).
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      await query(
        `UPDATE sync_connector SET last_success_started_at = last_success_started_at - interval '1 day'
          WHERE connector_id = $1`,
        [connectorId],
      );
      const rows = await query<{ was: string }>(
        `UPDATE vacancy_state s SET live_until = $3::date FROM vacancy_state old
          WHERE s.connector_id = $1 AND s.external_id = $2 AND old.connector_id = s.connector_id
            AND old.external_id = s.external_id AND s.live
         RETURNING to_char(old.live_until, 'YYYY-MM-DD') AS was`,
        [connectorId, id, yesterday],
      );
      expect(rows).toEqual([{ was: lastDay }]); // the run had kept the ATS's last advertised day
      atsA().state.resetCalls();
      // Last on this connector: from here its stored state and the ATS disagree about what day it is.
      const { completed: done, upserts, closures } = await run(connectorId); // default mode: changes only
      expect(closures).toEqual([{ connectorId, externalId: id }]);
      expect(upserts).toEqual([]);
      expect(done.counts).toMatchObject({ closed: 1 });
      expect(calls()['POST /api/vacancies/search']).toBe(1); // the one changes-only page, nothing more
    });

    it('warns on the run about a configured status the ATS does not offer, and lists the others', async () => {
      const other = await connect('ats-a', { openStatuses: ['Open', 'Live', 'Advertised'] });
      const { completed: done, upserts } = await run(other);
      expect(done.status).toBe('succeeded');
      expect(sorted(upserts.map((u) => u.externalId))).toEqual(liveIds());
      expect(done.warnings).toEqual([
        { code: 'UNKNOWN_STATUSES', message: expect.stringContaining('“Advertised”') },
      ]);
      expect(done.warnings?.[0].message).toContain('It offers: “Draft”, “Open”, “Live”');
    });

    it('warns when a full listing answers nothing although the ATS has vacancies on its careers site', async () => {
      // "Filled" is offered, but no filled vacancy is on the careers site any more.
      const filled = VACANCY_STATUSES.find((st) => st.Description === 'Filled')!.Id;
      for (let id = 1; id <= atsA().state.vacancyCount(); id++) {
        const v = atsA().state.getVacancy(id);
        if (v && v.VacancyStatus.Id === filled && v.IncludeOnSite) atsA().state.unpublish(id);
      }
      const other = await connect('ats-a', { openStatuses: ['Filled'] });
      atsA().state.resetCalls();
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
      expect(calls()['POST /api/vacancies/search']).toBe(2);
    });

    it('fails a run none of whose statuses the ATS offers, saying which statuses it does offer', async () => {
      const other = await connect('ats-a', { openStatuses: ['Advertised'] });
      const { completed: done, upserts, closures } = await run(other);
      expect(done.status).toBe('failed');
      expect(upserts).toEqual([]);
      expect(closures).toEqual([]);
      expect(done.warnings).toEqual([
        { code: 'RUN_FAILED', message: expect.stringMatching(/“Advertised”.*It offers: “Draft”, “Open”/) },
      ]);
    });
  });

  describe('ats-b only', () => {
    const atsB = () => (world.sandbox('ats-b').running as RunningAtsBSandbox).state;

    it('speaks the vendor data model: isPublic an Integer', () => {
      expect(typeof atsB().job(1)!.isPublic).toBe('number');
    });

    it('closes a closed and a soft-deleted job and re-publishes a retitled one, reading only what changed', async () => {
      const connectorId = await connect('ats-b');
      await run(connectorId);
      const [closing, deleting, retitling] = vacanciesOf('ats-b').liveIds();
      atsB().closeJob(Number(closing));
      atsB().closeJob(Number(deleting), { deleted: true });
      atsB().updateJob(Number(retitling), { title: 'Retitled in the ATS' });
      atsB().resetCalls();

      const next = await run(connectorId);
      expect(next.completed.status).toBe('succeeded');
      expect(next.upserts.map((u) => [u.externalId, u.title])).toEqual([[retitling, 'Retitled in the ATS']]);
      expect(next.closures.map((c) => c.externalId).sort()).toEqual([closing, deleting].sort());
      expect(next.closures.every((c) => c.connectorId === connectorId)).toBe(true);
      expect(next.completed.counts).toMatchObject({ upserted: 1, closed: 2 });
      // A changes-only run: one listing page and one read of the three changed jobs, not the whole catalogue.
      expect(atsB().callCounts()).toMatchObject({ 'GET search/JobOrder': 1, 'GET entity/JobOrder': 1 });
    });
  });

  async function query<R extends object>(sql: string, params: unknown[]): Promise<R[]> {
    const db = new Client({ connectionString: world.env.DATABASE_URL });
    await db.connect();
    try {
      return (await db.query<R>(sql, params)).rows;
    } finally {
      await db.end();
    }
  }
});

/** Checks of one vendor's listing (its endpoints and how many calls a run takes), inside the generic tests. */
interface WireChecks {
  firstRun?(running: unknown, upserts: VacancyUpsertedDto[], done: RunCompletedDto): void;
  changesRun?(running: unknown): void;
}

const wireChecks: Record<string, WireChecks> = {
  'ats-a': {
    firstRun(running, upserts, done) {
      const { state } = running as RunningAtsASandbox;
      for (const upsert of upserts) {
        const vacancy = state.getVacancy(Number(upsert.externalId))!;
        const contact = vacancy.Contact ? state.getContact(vacancy.Contact.Id) : undefined;
        expect(upsert.contact?.externalId).toBe(contact ? String(contact.ContactId) : undefined);
      }
      let onSiteOpen = 0;
      for (let id = 1; id <= state.vacancyCount(); id++) {
        const v = state.getVacancy(id);
        if (v && v.IncludeOnSite && ['Open', 'Live'].includes(v.VacancyStatus.Description)) onSiteOpen++;
      }
      const calls = state.callCounts().byEndpoint;
      // The ATS filters status and IncludeOnSite; the advertising dates are checked here.
      const pages = calls['POST /api/vacancies/search'];
      expect(pages).toBe(Math.ceil(onSiteOpen / 100));
      expect(calls['POST /api/contacts/search']).toBeLessThanOrEqual(pages);
      expect(calls['POST /api/companies/search']).toBeLessThanOrEqual(pages);
      // One more: the status list (dropdown 50) that turns "Open" and "Live" into the ATS's ids.
      expect(calls['GET /api/options/dropdown/{id}']).toBe(1);
      expect(done.apiCalls).toBe(
        pages + calls['POST /api/contacts/search'] + calls['POST /api/companies/search'] + 1,
      );
    },
    changesRun(running) {
      // One listing page of changed vacancies; enrichment only for the live one.
      const calls = (running as RunningAtsASandbox).state.callCounts().byEndpoint;
      expect(calls['POST /api/vacancies/search']).toBe(1);
      expect(calls['POST /api/contacts/search'] ?? 0).toBeLessThanOrEqual(1);
      expect(calls['POST /api/companies/search'] ?? 0).toBeLessThanOrEqual(1);
    },
  },
};
