import { randomUUID } from 'node:crypto';
import type { RunningAtsASandbox } from '@connector/ats-a-sandbox';
import type { RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import { atsRegistry } from '@connector/ats-registry';
import type { SandboxCandidate } from '@connector/ats-sandbox-core/testing';
import { type CandidateDataDto, createEvent, Exchange, Queue, RoutingKey } from '@connector/contracts';
import { deadLetterQueueName } from '@connector/messaging';
import { eventually, timesHandled } from '@connector/testing';
import { type TestWorld, testWorld, type WorldConnector } from '@connector/test-world';

/**
 * candidate-sync end to end, for every registered ATS with `candidates` (and `applications` where it has
 * them): auth-gateway and candidate-sync as processes, each ATS's sandbox in-process through its test driver,
 * real RabbitMQ and Postgres; connector-registry stood in for by a responder on its two requests. One account
 * holds a connector on each of those ATSs, as a customer with several would.
 */

const ACCOUNT = 'acct_candidates';
const CANDIDATE_TYPES = atsRegistry.typesWith('candidates');

describe('candidate-sync', () => {
  let world: TestWorld;
  const connectors = new Map<string, WorldConnector>();
  const connectorOf = (type: string): WorldConnector => connectors.get(type)!;
  const workers = () => world.processes.filter((p) => p.name === 'candidate-sync');

  let clock = Date.parse('2026-11-21T10:00:00.000Z');
  const nextTime = () => new Date((clock += 1_000));
  const publish = <T extends object>(type: string, data: T, occurredAt = nextTime()) => {
    const event = createEvent(type, ACCOUNT, data, { occurredAt });
    world.broker.publish(Exchange.PlatformEvents, type, event);
    return event;
  };
  const candidate = (overrides: Partial<CandidateDataDto> = {}): CandidateDataDto => {
    const id = randomUUID().slice(0, 8);
    return {
      candidateId: `cand-${id}`,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: `ada.${id}@example.com`,
      phone: '+44 20 7946 0000',
      address: { line1: '12 St James Square', city: 'London', postalCode: 'SW1Y 4JH', countryCode: 'GB' },
      workHistory: [
        { employer: 'Analytical Engines Ltd', title: 'Programmer', startDate: '2019-01', endDate: '2021-06' },
        { employer: 'Difference Co', title: 'Lead', startDate: '2021-07', current: true },
      ],
      education: [
        {
          institution: 'University of London',
          degree: 'BSc',
          fieldOfStudy: 'Mathematics',
          startDate: '2015-09',
          endDate: '2018-06',
        },
      ],
      ...overrides,
    };
  };
  const candidatesIn = (type: string, email: string): SandboxCandidate[] =>
    world.sandbox(type).candidates(email);
  const syncedIn = (type: string, sourceId: string, match: Record<string, unknown> = {}) =>
    world.eventFor(RoutingKey.CandidateSynced, sourceId, { connectorId: connectorOf(type).id, ...match });
  const syncedEverywhere = (sourceId: string) =>
    Promise.all(CANDIDATE_TYPES.map((type) => syncedIn(type, sourceId)));

  beforeAll(async () => {
    world = await testWorld({
      name: 'e2e_candidates',
      services: ['auth-gateway', 'candidate-sync'],
      env: {
        RETRY_DELAYS_MS: '300,600,1000,2000,3000,5000',
        ATS_TIMEOUT_MS: '1500',
        LOCK_WAIT_MS: '5000',
        LOG_LEVEL: 'debug',
      },
      registry: 'stub',
      sandboxes: CANDIDATE_TYPES,
      tap: [Exchange.ConnectorEvents],
    });
    for (const type of CANDIDATE_TYPES)
      connectors.set(type, await world.connect(type, { accountId: ACCOUNT }));
  }, 120_000);

  afterAll(() => world?.close());

  describe('one process', () => {
    describe.each(CANDIDATE_TYPES)('%s', (type) => {
      it('creates the candidate with history and education, once, whatever the redeliveries', async () => {
        const data = candidate();
        const created = publish(RoutingKey.CandidateCreated, data);
        world.broker.publish(Exchange.PlatformEvents, created.type, created); // redelivered
        const synced = await syncedIn(type, created.id);
        expect(synced.data).toMatchObject({ candidateId: data.candidateId, action: 'created' });

        const [stored] = await eventually(() => {
          const found = candidatesIn(type, data.email);
          return found[0]?.education.length === 1 ? found : undefined;
        });
        expect(stored).toEqual({
          externalId: synced.data.externalId,
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: data.email,
          phone: '+44 20 7946 0000',
          mobile: null,
          workHistory: [
            { employer: 'Analytical Engines Ltd', startDate: '2019-01', endDate: '2021-06' },
            { employer: 'Difference Co', startDate: '2021-07', endDate: null },
          ],
          education: [{ institution: 'University of London', degree: 'BSc', fieldOfStudy: 'Mathematics' }],
        });
        wireChecks[type]?.created(world.sandbox(type).running, data.email);

        // The redelivery was handled too, and changed nothing.
        await eventually(() => timesHandled(workers(), created.type, created.id) === 2);
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(candidatesIn(type, data.email)).toHaveLength(1);
        wireChecks[type]?.noDuplicates?.(world.sandbox(type).running);
      });

      it('updates only the changed fields, and never lets an older event overwrite a newer one', async () => {
        const data = candidate();
        const created = publish(RoutingKey.CandidateCreated, data);
        await syncedIn(type, created.id);
        wireChecks[type]?.resetCalls(world.sandbox(type).running);

        const newer = publish(RoutingKey.CandidateUpdated, { ...data, mobile: '+44 7700 900123' });
        const synced = await syncedIn(type, newer.id);
        expect(synced.data.action).toBe('updated');
        expect(candidatesIn(type, data.email)[0].mobile).toBe('+44 7700 900123');
        wireChecks[type]?.updatedOnce?.(world.sandbox(type).running);
        // Unchanged work history and education were not sent again.
        expect(candidatesIn(type, data.email)[0].workHistory).toHaveLength(2);

        // An older event arriving late is skipped: acked, nothing written, nothing reported as failed.
        const older = publish(
          RoutingKey.CandidateUpdated,
          { ...data, mobile: '+44 0000 000000' },
          new Date(clock - 1_500),
        );
        await eventually(() =>
          workers()[0].output.some((l) => l.includes(older.id) && l.includes('older than')),
        );
        expect(candidatesIn(type, data.email)[0].mobile).toBe('+44 7700 900123');
        expect(
          world.events(RoutingKey.OperationFailed).filter((e) => e.data.sourceEventId === older.id),
        ).toEqual([]);
      });

      it('ends with the newest data when candidate.updated arrives before candidate.created', async () => {
        const data = candidate();
        const createdAt = nextTime();
        const updated = publish(RoutingKey.CandidateUpdated, { ...data, lastName: 'King', phone: '+44 1' });
        await syncedIn(type, updated.id, { action: 'created' });
        const created = publish(RoutingKey.CandidateCreated, data, createdAt);
        // Skipped for each connector of the account.
        await eventually(
          () =>
            workers()[0].output.filter((l) => l.includes(created.id) && l.includes('older than')).length ===
            CANDIDATE_TYPES.length,
        );
        expect(candidatesIn(type, data.email)).toEqual([
          expect.objectContaining({ lastName: 'King', phone: '+44 1' }),
        ]);
        wireChecks[type]?.renamed?.(world.sandbox(type).running, data.email);
      });

      if (atsRegistry.supports(type, 'applications')) {
        it('creates one application per vacancy, and patches changed answers', async () => {
          const sandbox = world.sandbox(type);
          const [first, second] = vacancyIds(type, 0, 2);
          const data = candidate();
          const created = publish(RoutingKey.CandidateCreated, data);
          const { externalId: candidateId } = (await syncedIn(type, created.id)).data as {
            externalId: string;
          };
          const applicationId = `app-${randomUUID().slice(0, 8)}`;
          const connectorId = connectorOf(type).id;
          const submitted = publish(RoutingKey.ApplicationSubmitted, {
            applicationId,
            candidateId: data.candidateId,
            vacancies: [
              { connectorId, externalId: first },
              { connectorId, externalId: second },
            ],
            answers: [
              { question: 'Notice period?', answer: '1 month' },
              { question: 'Right to work in the UK?', answer: 'yes' },
            ],
          });
          const [onFirst] = await Promise.all([
            world.eventFor(RoutingKey.ApplicationSynced, submitted.id, { vacancyExternalId: first }),
            world.eventFor(RoutingKey.ApplicationSynced, submitted.id, { vacancyExternalId: second }),
          ]);
          expect(onFirst.data).toMatchObject({ connectorId, applicationId, action: 'created' });
          const mine = () => sandbox.applications!(candidateId);
          expect(
            mine()
              .map((a) => a.vacancyExternalId)
              .sort(),
          ).toEqual([first, second].sort());
          expect(mine()[0].answers).toEqual([
            { question: 'Notice period?', answer: '1 month' },
            { question: 'Right to work in the UK?', answer: 'yes' },
          ]);

          wireChecks[type]?.resetCalls(sandbox.running);
          const updated = publish(RoutingKey.ApplicationUpdated, {
            applicationId,
            candidateId: data.candidateId,
            vacancies: [{ connectorId, externalId: first }],
            answers: [
              { question: 'Notice period?', answer: '2 months' },
              { question: 'Right to work in the UK?', answer: 'yes' },
            ],
          });
          const patched = await world.eventFor(RoutingKey.ApplicationSynced, updated.id, {
            vacancyExternalId: first,
          });
          expect(patched.data).toMatchObject({ action: 'updated', externalId: onFirst.data.externalId });
          expect(mine().find((a) => a.vacancyExternalId === first)!.answers).toEqual([
            { question: 'Notice period?', answer: '2 months' },
            { question: 'Right to work in the UK?', answer: 'yes' },
          ]);
          expect(mine()).toHaveLength(2);
          wireChecks[type]?.applicationPatchedOnce?.(sandbox.running);
        });

        it('lets an application wait for its candidate, then creates it', async () => {
          const data = candidate();
          const [vacancy] = vacancyIds(type, 2, 1);
          const submitted = publish(RoutingKey.ApplicationSubmitted, {
            applicationId: `app-${randomUUID().slice(0, 8)}`,
            candidateId: data.candidateId,
            vacancies: [{ connectorId: connectorOf(type).id, externalId: vacancy }],
          });
          await eventually(() =>
            workers()[0].output.some((l) => l.includes(submitted.id) && l.includes('retry in')),
          );
          expect(
            world.events(RoutingKey.OperationFailed).filter((e) => e.data.sourceEventId === submitted.id),
          ).toEqual([]);
          publish(RoutingKey.CandidateCreated, data);
          const synced = await world.eventFor(RoutingKey.ApplicationSynced, submitted.id, {
            vacancyExternalId: vacancy,
          });
          expect(synced.data.action).toBe('created');
        });
      } else {
        it('reports an application on it as operation.unsupported, and makes it where the ATS has them', async () => {
          const data = candidate();
          const created = publish(RoutingKey.CandidateCreated, data);
          await syncedEverywhere(created.id);
          const connectorId = connectorOf(type).id;
          // One application to a vacancy on this ATS and to one on each ATS that takes applications.
          const others = CANDIDATE_TYPES.filter((t) => atsRegistry.supports(t, 'applications'));
          const elsewhere = others.map((t) => ({
            connectorId: connectorOf(t).id,
            vacancyExternalId: vacancyIds(t, 4, 1)[0],
          }));
          const submitted = publish(RoutingKey.ApplicationSubmitted, {
            applicationId: `app-${randomUUID().slice(0, 8)}`,
            candidateId: data.candidateId,
            vacancies: [
              { connectorId, externalId: '77' },
              ...elsewhere.map((v) => ({ connectorId: v.connectorId, externalId: v.vacancyExternalId })),
            ],
            answers: [{ question: 'Notice period?', answer: '1 month' }],
          });
          const unsupported = await world.eventFor(RoutingKey.OperationUnsupported, submitted.id, {
            connectorId,
          });
          expect(unsupported.data).toMatchObject({
            sourceEventId: submitted.id,
            sourceType: 'application.submitted',
          });
          for (const vacancy of elsewhere) {
            const synced = await world.eventFor(RoutingKey.ApplicationSynced, submitted.id, vacancy);
            expect(synced.data.action).toBe('created');
          }
        });
      }
    });

    it('dead-letters an invalid event with operation.failed, and goes on with the next one', async () => {
      const invalid = {
        ...createEvent(RoutingKey.CandidateCreated, ACCOUNT, { candidateId: 'x', email: 'not-an-email' }),
      };
      world.broker.publish(Exchange.PlatformEvents, invalid.type, invalid);
      const data = candidate();
      const valid = publish(RoutingKey.CandidateCreated, data);
      const failed = await world.eventFor(RoutingKey.OperationFailed, invalid.id);
      expect(failed.data).toMatchObject({
        sourceEventId: invalid.id,
        sourceType: 'candidate.created',
        retryable: false,
      });
      expect(JSON.stringify(failed.data.errors)).toMatch(/data\.email/);
      const dead = await eventually(async () => {
        const messages = await world.broker.getAll(deadLetterQueueName(Queue.CandidateSync));
        return messages.find((m) => JSON.parse(m.content.toString()).id === invalid.id);
      });
      expect(dead.properties.headers?.['x-dead-letter-reasons']).toMatch(/firstName/);
      await syncedEverywhere(valid.id);
    });

    // Per ATS: what only one vendor does (its faults, its field limits).
    describe('ats-a only', () => {
      it('keeps exactly one record when the ATS applies a write and then times out', async () => {
        const atsA = world.sandbox('ats-a').running as RunningAtsASandbox;
        const connectorId = connectorOf('ats-a').id;
        atsA.state.setFaults({
          timeoutAfterWrite: { 'POST /api/candidates': 1, 'POST /api/applications': 1 },
          timeoutMs: 3_000,
        });
        const data = candidate();
        const created = publish(RoutingKey.CandidateCreated, data);
        const synced = await syncedIn('ats-a', created.id);
        expect(candidatesIn('ats-a', data.email)).toHaveLength(1);
        expect(synced.data.externalId).toBe(candidatesIn('ats-a', data.email)[0].externalId);
        expect(atsA.state.faultConfig().timeoutAfterWrite['POST /api/candidates']).toBe(0); // the fault did fire

        const submitted = publish(RoutingKey.ApplicationSubmitted, {
          applicationId: `app-${randomUUID().slice(0, 8)}`,
          candidateId: data.candidateId,
          vacancies: [{ connectorId, externalId: '6' }],
          answers: [{ question: 'Why us?', answer: 'Engines' }],
        });
        await world.eventFor(RoutingKey.ApplicationSynced, submitted.id, { vacancyExternalId: '6' });
        expect(atsA.state.faultConfig().timeoutAfterWrite['POST /api/applications']).toBe(0);
        const candidateId = Number(candidatesIn('ats-a', data.email)[0].externalId);
        expect(atsA.state.applications().filter((a) => a.Candidate.Id === candidateId)).toHaveLength(1);
        expect(atsA.state.duplicateApplications()).toBe(0);
        // Both retries looked the record up instead of creating it again.
        const reconciled = workers()[0].output.filter((l) => l.includes('after an unsure create'));
        expect(reconciled.some((l) => l.includes(`candidate ${data.candidateId}`))).toBe(true);
        expect(reconciled.some((l) => l.includes(`application ${data.candidateId}/6`))).toBe(true);
        atsA.state.setFaults({});
      }, 60_000);
    });

    describe('ats-b only', () => {
      it('reports a permanent ATS refusal as operation.failed naming the field, not its value', async () => {
        // ATS-B takes phone numbers of at most 20 characters; the platform allows 40.
        const data = candidate({ phone: '+44 20 7946 0000 ext. 12345' });
        const created = publish(RoutingKey.CandidateCreated, data);
        const failed = await world.eventFor(RoutingKey.OperationFailed, created.id);
        expect(failed.data).toMatchObject({ connectorId: connectorOf('ats-b').id, retryable: false });
        expect(String(failed.data.reason)).toMatch(/answered 400 \(permanent.*fields: phone/);
        // The ATS's words may quote what was sent: they stay in the dead letter, which erasure removes.
        expect(JSON.stringify(failed)).not.toMatch(/7946/);
        expect(candidatesIn('ats-b', data.email)).toHaveLength(0);
        // The account's other ATSs took it.
        for (const other of CANDIDATE_TYPES.filter((t) => t !== 'ats-b')) {
          await syncedIn(other, created.id);
          expect(candidatesIn(other, data.email)).toHaveLength(1);
        }
      });
    });
  });

  describe('three processes', () => {
    beforeAll(async () => {
      await Promise.all([world.startService('candidate-sync'), world.startService('candidate-sync')]);
    }, 120_000);

    describe.each(CANDIDATE_TYPES)('%s', (type) => {
      it('makes one candidate (and one application) when the same events reach three workers at once', async () => {
        const data = candidate();
        const created = createEvent(RoutingKey.CandidateCreated, ACCOUNT, data, { occurredAt: nextTime() });
        for (let i = 0; i < 3; i++) world.broker.publish(Exchange.PlatformEvents, created.type, created);
        const synced = await syncedIn(type, created.id);
        // All three copies handled before counting.
        await eventually(() => timesHandled(workers(), created.type, created.id) >= 3);

        if (atsRegistry.supports(type, 'applications')) {
          const [vacancy] = vacancyIds(type, 3, 1);
          const submitted = createEvent(
            RoutingKey.ApplicationSubmitted,
            ACCOUNT,
            {
              applicationId: `app-${randomUUID().slice(0, 8)}`,
              candidateId: data.candidateId,
              vacancies: [{ connectorId: connectorOf(type).id, externalId: vacancy }],
              answers: [{ question: 'Start date?', answer: 'June' }],
            },
            { occurredAt: nextTime() },
          );
          for (let i = 0; i < 3; i++)
            world.broker.publish(Exchange.PlatformEvents, submitted.type, submitted);
          await world.eventFor(RoutingKey.ApplicationSynced, submitted.id, { vacancyExternalId: vacancy });
          await eventually(() => timesHandled(workers(), submitted.type, submitted.id) >= 3);
          const seenBy = workers().filter((w) => w.output.some((l) => l.includes(submitted.id))).length;
          expect(seenBy).toBeGreaterThanOrEqual(2);
          expect(world.sandbox(type).applications!(String(synced.data.externalId))).toHaveLength(1);
          wireChecks[type]?.noDuplicates?.(world.sandbox(type).running);
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
        const seenBy = workers().filter((w) => w.output.some((l) => l.includes(created.id))).length;
        expect(seenBy).toBeGreaterThanOrEqual(2);
        expect(candidatesIn(type, data.email)).toHaveLength(1);
      });

      it('applies a burst of updates to one candidate one at a time, ending with the newest', async () => {
        const data = candidate();
        publish(RoutingKey.CandidateCreated, data);
        const updates = Array.from({ length: 9 }, (_, i) =>
          createEvent(
            RoutingKey.CandidateUpdated,
            ACCOUNT,
            { ...data, mobile: `+44 7700 90000${i}` },
            { occurredAt: nextTime() },
          ),
        );
        // Published newest first: every older one must lose.
        for (const update of [...updates].reverse())
          world.broker.publish(Exchange.PlatformEvents, update.type, update);
        const newest = updates[updates.length - 1];
        await syncedIn(type, newest.id);
        await eventually(() => updates.every((u) => timesHandled(workers(), u.type, u.id) >= 1));
        expect(candidatesIn(type, data.email)).toEqual([
          expect.objectContaining({ mobile: '+44 7700 900008' }),
        ]);
      });
    });
  });

  /** `count` vacancies of the ATS from the `skip`th on: each test applies to vacancies of its own. */
  function vacancyIds(type: string, skip: number, count: number): string[] {
    return world.sandbox(type).vacancyIds!(skip + count).slice(skip);
  }
});

/**
 * Checks of one vendor's own record (its field names, its defaults, its endpoints), run inside the generic
 * tests; an ATS without an entry runs the generic checks alone.
 */
interface WireChecks {
  created(running: unknown, email: string): void;
  renamed?(running: unknown, email: string): void;
  resetCalls(running: unknown): void;
  updatedOnce?(running: unknown): void;
  applicationPatchedOnce?(running: unknown): void;
  noDuplicates?(running: unknown): void;
}

const atsAOf = (running: unknown) => (running as RunningAtsASandbox).state;
const atsBOf = (running: unknown) => (running as RunningAtsBSandbox).state;

const wireChecks: Record<string, WireChecks> = {
  'ats-a': {
    created(running, email) {
      const [inA] = atsAOf(running)
        .candidates()
        .filter((c) => c.Email === email);
      expect(inA).toMatchObject({
        FirstName: 'Ada',
        Surname: 'Lovelace',
        Telephone: '+44 20 7946 0000',
        Address: { Address1: '12 St James Square', Town: 'London', PostCode: 'SW1Y 4JH', Country: 'GB' },
        EmploymentHistory: [
          {
            Employer: 'Analytical Engines Ltd',
            JobTitle: 'Programmer',
            StartDate: '2019-01',
            EndDate: '2021-06',
          },
          { Employer: 'Difference Co', JobTitle: 'Lead', StartDate: '2021-07', EndDate: null },
        ],
        Education: [{ Establishment: 'University of London', Qualification: 'BSc', Subject: 'Mathematics' }],
      });
    },
    resetCalls: (running) => atsAOf(running).resetCalls(),
    updatedOnce: (running) =>
      expect(atsAOf(running).callCounts().byEndpoint['PATCH /api/candidates/{id}']).toBe(1),
    applicationPatchedOnce(running) {
      const calls = atsAOf(running).callCounts().byEndpoint;
      expect(calls['PATCH /api/applications/{id}']).toBe(1);
      expect(calls['POST /api/applications'] ?? 0).toBe(0);
      expect(atsAOf(running).duplicateApplications()).toBe(0);
    },
    noDuplicates: (running) => expect(atsAOf(running).duplicateApplications()).toBe(0),
  },
  'ats-b': {
    created(running, email) {
      const [inB] = atsBOf(running)
        .candidates()
        .filter((c) => c.email === email);
      expect(inB).toMatchObject({
        firstName: 'Ada',
        lastName: 'Lovelace',
        name: 'Ada Lovelace',
        status: 'New Lead',
        address: { address1: '12 St James Square', city: 'London', zip: 'SW1Y 4JH', countryID: 2359 },
      });
      expect(inB.workHistories.map((w) => [w.companyName, w.startDate, w.endDate])).toEqual([
        ['Analytical Engines Ltd', Date.UTC(2019, 0, 1), Date.UTC(2021, 5, 1)],
        ['Difference Co', Date.UTC(2021, 6, 1), null],
      ]);
      expect(inB.educations).toMatchObject([
        { school: 'University of London', degree: 'BSc', major: 'Mathematics' },
      ]);
    },
    renamed(running, email) {
      expect(
        atsBOf(running)
          .candidates()
          .filter((c) => c.email === email),
      ).toEqual([expect.objectContaining({ name: 'Ada King' })]);
    },
    resetCalls: (running) => atsBOf(running).resetCalls(),
    noDuplicates: (running) => expect(atsBOf(running).duplicates().byEmail).toBe(0),
  },
};
