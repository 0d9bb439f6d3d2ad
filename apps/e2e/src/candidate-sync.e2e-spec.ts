import { randomBytes, randomUUID } from 'node:crypto';
import type { ConsumeMessage } from 'amqplib';
import { startAtsASandbox, type RunningAtsASandbox } from '@connector/ats-a-sandbox';
import { startAtsBSandbox, type RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import {
  type CandidateDataDto,
  type ConnectorSnapshot,
  createEvent,
  Exchange,
  Queue,
  RoutingKey,
} from '@connector/contracts';
import { deadLetterQueueName, RabbitConnection, RpcClient } from '@connector/messaging';
import { connectorSnapshot } from '@connector/ats-testing';
import {
  createSuiteInfrastructure,
  eventsOf,
  eventually,
  rabbitUrl,
  startService,
  timesHandled,
  type ServiceProcess,
  type TestDatabase,
  TestBroker,
  waitForEvent,
  type SuiteInfrastructure,
} from '@connector/testing';
import {
  authorizeAtsB,
  type ConnectorDirectoryStub,
  startAuthGateway,
  saveAtsACredentials,
  startConnectorDirectoryStub,
} from '@connector/service-stubs';

/**
 * candidate-sync end to end: auth-gateway and candidate-sync as processes, both ATS sandboxes in-process,
 * real RabbitMQ and Postgres. connector-registry is stood in for by a tiny responder on its two requests.
 */

const ACCOUNT = 'acct_candidates';
const CLIENT_SECRET = `secret-${randomBytes(8).toString('hex')}`;
const connectors = new Map<string, ConnectorSnapshot>();

const snapshot = (id: string, type: 'ats-a' | 'ats-b', config: Record<string, unknown>) =>
  connectorSnapshot({ id, accountId: ACCOUNT, type, config });

describe('candidate-sync', () => {
  let database: TestDatabase;
  let atsA: RunningAtsASandbox;
  let atsB: RunningAtsBSandbox;
  let registry: ConnectorDirectoryStub;
  let connection: RabbitConnection;
  let rpc: RpcClient;
  let broker: TestBroker;
  let out: ConsumeMessage[];
  const workers: ServiceProcess[] = [];
  let gateway: ServiceProcess;
  let env: Record<string, string>;
  const atsAId = `conn-a-${randomUUID().slice(0, 8)}`;
  const atsBId = `conn-b-${randomUUID().slice(0, 8)}`;

  let clock = Date.parse('2026-11-21T10:00:00.000Z');
  const nextTime = () => new Date((clock += 1_000));
  const publish = <T extends object>(type: string, data: T, occurredAt = nextTime()) => {
    const event = createEvent(type, ACCOUNT, data, { occurredAt });
    broker.publish(Exchange.PlatformEvents, type, event);
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
  const events = (type: string) => eventsOf(out, type);
  const eventFor = (type: string, sourceId: string, match: Record<string, unknown> = {}) =>
    waitForEvent(() => out, type, sourceId, match);
  const atsACandidates = (email: string) => atsA.state.candidates().filter((c) => c.Email === email);
  const atsBCandidates = (email: string) => atsB.state.candidates().filter((c) => c.email === email);

  let infra: SuiteInfrastructure;

  beforeAll(async () => {
    // A RabbitMQ vhost of its own: no other suite's or developer's services take this suite's messages.
    infra = await createSuiteInfrastructure('e2e_candidates');
    ({ database } = infra);
    atsA = await startAtsASandbox({
      clients: [{ clientId: 'demo-client', clientSecret: CLIENT_SECRET }],
      seed: { vacancies: 20 },
      dailyLimit: 1_000_000,
    });
    atsB = await startAtsBSandbox({});
    broker = await TestBroker.connect();
    // The real registry's queue would take the lookups; earlier suites may have left messages behind.
    await broker.deleteQueuesIfPresent([
      Queue.ConnectorRegistry,
      Queue.CandidateSync,
      deadLetterQueueName(Queue.CandidateSync),
      Queue.AuthGateway,
    ]);
    out = await broker.tap(Exchange.ConnectorEvents, '#');
    registry = await startConnectorDirectoryStub(connectors);

    gateway = await startAuthGateway(atsB, { DATABASE_URL: database.url, RABBITMQ_URL: rabbitUrl() });
    connection = new RabbitConnection({ url: rabbitUrl(), name: 'e2e-candidates' });
    rpc = new RpcClient(connection, 'connector-registry');

    // ATS-A: credentials saved through the gateway, as the registry does on POST /connectors.
    await saveAtsACredentials(rpc, ACCOUNT, atsAId, {
      baseUrl: atsA.url,
      clientId: 'demo-client',
      clientSecret: CLIENT_SECRET,
    });
    connectors.set(atsAId, snapshot(atsAId, 'ats-a', { baseUrl: atsA.url, clientId: 'demo-client' }));
    // ATS-B: the interactive login, driven through the sandbox's form.
    await authorizeAtsB(rpc, ACCOUNT, atsBId);
    connectors.set(atsBId, snapshot(atsBId, 'ats-b', { routine: 'api-oauth' }));

    env = {
      DATABASE_URL: database.url,
      RABBITMQ_URL: rabbitUrl(),
      RETRY_DELAYS_MS: '300,600,1000,2000,3000,5000',
      ATS_TIMEOUT_MS: '1500',
      LOCK_WAIT_MS: '5000',
      LOG_LEVEL: 'debug',
    };
    workers.push(await startService('candidate-sync', env));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await gateway?.stop();
    await rpc?.close();
    await connection?.close();
    await registry?.close();
    if (broker) {
      await broker.close();
    }
    await atsA?.close();
    await atsB?.close();
    await infra?.drop();
  });

  describe('one process', () => {
    it('creates the candidate in both ATSs with history and education, once, whatever the redeliveries', async () => {
      const data = candidate();
      const created = publish(RoutingKey.CandidateCreated, data);
      broker.publish(Exchange.PlatformEvents, created.type, created); // redelivered
      const [syncedA, syncedB] = await Promise.all([
        eventFor(RoutingKey.CandidateSynced, created.id, { connectorId: atsAId }),
        eventFor(RoutingKey.CandidateSynced, created.id, { connectorId: atsBId }),
      ]);
      expect(syncedA.data).toMatchObject({ candidateId: data.candidateId, action: 'created' });
      expect(syncedB.data).toMatchObject({ candidateId: data.candidateId, action: 'created' });

      const [inA] = atsACandidates(data.email);
      expect(inA).toMatchObject({
        CandidateId: Number(syncedA.data.externalId),
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
      const [inB] = await eventually(() => {
        const found = atsBCandidates(data.email);
        return found[0]?.educations.length === 1 ? found : undefined;
      });
      expect(inB).toMatchObject({
        id: Number(syncedB.data.externalId),
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

      // The redelivery was handled too, and changed nothing.
      await eventually(() => timesHandled(workers, created.type, created.id) === 2);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(atsACandidates(data.email)).toHaveLength(1);
      expect(atsBCandidates(data.email)).toHaveLength(1);
      expect(atsB.state.duplicates().byEmail).toBe(0);
    });

    it('updates only the changed fields, and never lets an older event overwrite a newer one', async () => {
      const data = candidate();
      const created = publish(RoutingKey.CandidateCreated, data);
      await eventFor(RoutingKey.CandidateSynced, created.id, { connectorId: atsAId });
      await eventFor(RoutingKey.CandidateSynced, created.id, { connectorId: atsBId });
      atsA.state.resetCalls();
      atsB.state.resetCalls();

      const newer = publish(RoutingKey.CandidateUpdated, { ...data, mobile: '+44 7700 900123' });
      const synced = await eventFor(RoutingKey.CandidateSynced, newer.id, { connectorId: atsAId });
      expect(synced.data.action).toBe('updated');
      await eventFor(RoutingKey.CandidateSynced, newer.id, { connectorId: atsBId });
      expect(atsACandidates(data.email)[0].Mobile).toBe('+44 7700 900123');
      expect(atsBCandidates(data.email)[0].mobile).toBe('+44 7700 900123');
      expect(atsA.state.callCounts().byEndpoint['PATCH /api/candidates/{id}']).toBe(1);
      // Unchanged work history and education were not sent again.
      expect(atsBCandidates(data.email)[0].workHistories).toHaveLength(2);

      // An older event arriving late is skipped: acked, nothing written, nothing reported as failed.
      const older = publish(
        RoutingKey.CandidateUpdated,
        { ...data, mobile: '+44 0000 000000' },
        new Date(clock - 1_500),
      );
      await eventually(() => workers[0].output.some((l) => l.includes(older.id) && l.includes('older than')));
      expect(atsACandidates(data.email)[0].Mobile).toBe('+44 7700 900123');
      expect(atsBCandidates(data.email)[0].mobile).toBe('+44 7700 900123');
      expect(events(RoutingKey.OperationFailed).filter((e) => e.data.sourceEventId === older.id)).toEqual([]);
    });

    it('ends with the newest data when candidate.updated arrives before candidate.created', async () => {
      const data = candidate();
      const createdAt = nextTime();
      const updated = publish(RoutingKey.CandidateUpdated, { ...data, lastName: 'King', phone: '+44 1' });
      await eventFor(RoutingKey.CandidateSynced, updated.id, { connectorId: atsAId, action: 'created' });
      await eventFor(RoutingKey.CandidateSynced, updated.id, { connectorId: atsBId, action: 'created' });
      const created = publish(RoutingKey.CandidateCreated, data, createdAt);
      await eventually(
        () =>
          workers[0].output.filter((l) => l.includes(created.id) && l.includes('older than')).length === 2,
      );
      expect(atsACandidates(data.email)).toEqual([
        expect.objectContaining({ Surname: 'King', Telephone: '+44 1' }),
      ]);
      expect(atsBCandidates(data.email)).toEqual([
        expect.objectContaining({ lastName: 'King', name: 'Ada King', phone: '+44 1' }),
      ]);
    });

    it('creates one application per vacancy, reports ATS-B as unsupported, and patches changed answers', async () => {
      const data = candidate();
      const created = publish(RoutingKey.CandidateCreated, data);
      await eventFor(RoutingKey.CandidateSynced, created.id, { connectorId: atsAId });
      const applicationId = `app-${randomUUID().slice(0, 8)}`;
      const submitted = publish(RoutingKey.ApplicationSubmitted, {
        applicationId,
        candidateId: data.candidateId,
        vacancies: [
          { connectorId: atsAId, externalId: '3' },
          { connectorId: atsAId, externalId: '4' },
          { connectorId: atsBId, externalId: '77' },
        ],
        answers: [
          { question: 'Notice period?', answer: '1 month' },
          { question: 'Right to work in the UK?', answer: 'yes' },
        ],
      });
      const [on3, , unsupported] = await Promise.all([
        eventFor(RoutingKey.ApplicationSynced, submitted.id, { vacancyExternalId: '3' }),
        eventFor(RoutingKey.ApplicationSynced, submitted.id, { vacancyExternalId: '4' }),
        eventFor(RoutingKey.OperationUnsupported, submitted.id, { connectorId: atsBId }),
      ]);
      expect(on3.data).toMatchObject({ connectorId: atsAId, applicationId, action: 'created' });
      expect(unsupported.data).toMatchObject({
        sourceEventId: submitted.id,
        sourceType: 'application.submitted',
      });
      const candidateId = atsACandidates(data.email)[0].CandidateId;
      const mine = () => atsA.state.applications().filter((a) => a.Candidate.Id === candidateId);
      expect(
        mine()
          .map((a) => a.Vacancy.Id)
          .sort(),
      ).toEqual([3, 4]);
      expect(mine()[0].Questions).toEqual([
        { Question: 'Notice period?', Answer: '1 month' },
        { Question: 'Right to work in the UK?', Answer: 'yes' },
      ]);

      atsA.state.resetCalls();
      const updated = publish(RoutingKey.ApplicationUpdated, {
        applicationId,
        candidateId: data.candidateId,
        vacancies: [{ connectorId: atsAId, externalId: '3' }],
        answers: [
          { question: 'Notice period?', answer: '2 months' },
          { question: 'Right to work in the UK?', answer: 'yes' },
        ],
      });
      const patched = await eventFor(RoutingKey.ApplicationSynced, updated.id, { vacancyExternalId: '3' });
      expect(patched.data).toMatchObject({ action: 'updated', externalId: on3.data.externalId });
      const on3Now = mine().find((a) => a.Vacancy.Id === 3)!;
      expect(on3Now.Questions).toEqual([
        { Question: 'Notice period?', Answer: '2 months' },
        { Question: 'Right to work in the UK?', Answer: 'yes' },
      ]);
      expect(atsA.state.callCounts().byEndpoint['PATCH /api/applications/{id}']).toBe(1);
      expect(atsA.state.callCounts().byEndpoint['POST /api/applications'] ?? 0).toBe(0);
      expect(atsA.state.duplicateApplications()).toBe(0);
    });

    it('lets an application wait for its candidate, then creates it', async () => {
      const data = candidate();
      const submitted = publish(RoutingKey.ApplicationSubmitted, {
        applicationId: `app-${randomUUID().slice(0, 8)}`,
        candidateId: data.candidateId,
        vacancies: [{ connectorId: atsAId, externalId: '5' }],
      });
      await eventually(() =>
        workers[0].output.some((l) => l.includes(submitted.id) && l.includes('retry in')),
      );
      expect(events(RoutingKey.OperationFailed).filter((e) => e.data.sourceEventId === submitted.id)).toEqual(
        [],
      );
      publish(RoutingKey.CandidateCreated, data);
      const synced = await eventFor(RoutingKey.ApplicationSynced, submitted.id, { vacancyExternalId: '5' });
      expect(synced.data.action).toBe('created');
    });

    it('keeps exactly one record when the ATS applies a write and then times out', async () => {
      atsA.state.setFaults({
        timeoutAfterWrite: { 'POST /api/candidates': 1, 'POST /api/applications': 1 },
        timeoutMs: 3_000,
      });
      const data = candidate();
      const created = publish(RoutingKey.CandidateCreated, data);
      const synced = await eventFor(RoutingKey.CandidateSynced, created.id, { connectorId: atsAId });
      expect(atsACandidates(data.email)).toHaveLength(1);
      expect(synced.data.externalId).toBe(String(atsACandidates(data.email)[0].CandidateId));
      expect(atsA.state.faultConfig().timeoutAfterWrite['POST /api/candidates']).toBe(0); // the fault did fire

      const submitted = publish(RoutingKey.ApplicationSubmitted, {
        applicationId: `app-${randomUUID().slice(0, 8)}`,
        candidateId: data.candidateId,
        vacancies: [{ connectorId: atsAId, externalId: '6' }],
        answers: [{ question: 'Why us?', answer: 'Engines' }],
      });
      await eventFor(RoutingKey.ApplicationSynced, submitted.id, { vacancyExternalId: '6' });
      expect(atsA.state.faultConfig().timeoutAfterWrite['POST /api/applications']).toBe(0);
      const candidateId = atsACandidates(data.email)[0].CandidateId;
      expect(atsA.state.applications().filter((a) => a.Candidate.Id === candidateId)).toHaveLength(1);
      expect(atsA.state.duplicateApplications()).toBe(0);
      // Both retries looked the record up instead of creating it again.
      const reconciled = workers[0].output.filter((l) => l.includes('after an unsure create'));
      expect(reconciled.some((l) => l.includes(`candidate ${data.candidateId}`))).toBe(true);
      expect(reconciled.some((l) => l.includes(`application ${data.candidateId}/6`))).toBe(true);
      atsA.state.setFaults({});
    }, 60_000);

    it('dead-letters an invalid event with operation.failed, and goes on with the next one', async () => {
      const invalid = {
        ...createEvent(RoutingKey.CandidateCreated, ACCOUNT, { candidateId: 'x', email: 'not-an-email' }),
      };
      broker.publish(Exchange.PlatformEvents, invalid.type, invalid);
      const data = candidate();
      const valid = publish(RoutingKey.CandidateCreated, data);
      const failed = await eventFor(RoutingKey.OperationFailed, invalid.id);
      expect(failed.data).toMatchObject({
        sourceEventId: invalid.id,
        sourceType: 'candidate.created',
        retryable: false,
      });
      expect(JSON.stringify(failed.data.errors)).toMatch(/data\.email/);
      const dead = await eventually(async () => {
        const messages = await broker.getAll(deadLetterQueueName(Queue.CandidateSync));
        return messages.find((m) => JSON.parse(m.content.toString()).id === invalid.id);
      });
      expect(dead.properties.headers?.['x-dead-letter-reasons']).toMatch(/firstName/);
      await eventFor(RoutingKey.CandidateSynced, valid.id, { connectorId: atsAId });
    });

    it('reports a permanent ATS refusal as operation.failed naming the field, not its value', async () => {
      // ATS-B takes phone numbers of at most 20 characters; the platform allows 40.
      const data = candidate({ phone: '+44 20 7946 0000 ext. 12345' });
      const created = publish(RoutingKey.CandidateCreated, data);
      const failed = await eventFor(RoutingKey.OperationFailed, created.id);
      expect(failed.data).toMatchObject({ connectorId: atsBId, retryable: false });
      expect(String(failed.data.reason)).toMatch(/answered 400 \(permanent.*fields: phone/);
      // The ATS's words may quote what was sent: they stay in the dead letter, which erasure removes.
      expect(JSON.stringify(failed)).not.toMatch(/7946/);
      expect(atsACandidates(data.email)).toHaveLength(1); // ATS-A took it
      expect(atsBCandidates(data.email)).toHaveLength(0);
    });
  });

  describe('three processes', () => {
    beforeAll(async () => {
      workers.push(
        ...(await Promise.all([startService('candidate-sync', env), startService('candidate-sync', env)])),
      );
    }, 120_000);

    it('makes one candidate and one application when the same events reach three workers at once', async () => {
      const data = candidate();
      const created = createEvent(RoutingKey.CandidateCreated, ACCOUNT, data, { occurredAt: nextTime() });
      for (let i = 0; i < 3; i++) broker.publish(Exchange.PlatformEvents, created.type, created);
      await eventFor(RoutingKey.CandidateSynced, created.id, { connectorId: atsAId });
      await eventFor(RoutingKey.CandidateSynced, created.id, { connectorId: atsBId });

      const submitted = createEvent(
        RoutingKey.ApplicationSubmitted,
        ACCOUNT,
        {
          applicationId: `app-${randomUUID().slice(0, 8)}`,
          candidateId: data.candidateId,
          vacancies: [{ connectorId: atsAId, externalId: '7' }],
          answers: [{ question: 'Start date?', answer: 'June' }],
        },
        { occurredAt: nextTime() },
      );
      for (let i = 0; i < 3; i++) broker.publish(Exchange.PlatformEvents, submitted.type, submitted);
      await eventFor(RoutingKey.ApplicationSynced, submitted.id, { vacancyExternalId: '7' });
      // All three copies handled before counting.
      await eventually(() => timesHandled(workers, submitted.type, submitted.id) >= 3);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const workersThatSawIt = workers.filter((w) => w.output.some((l) => l.includes(submitted.id))).length;
      expect(workersThatSawIt).toBeGreaterThanOrEqual(2);

      expect(atsACandidates(data.email)).toHaveLength(1);
      expect(atsBCandidates(data.email)).toHaveLength(1);
      const candidateId = atsACandidates(data.email)[0].CandidateId;
      expect(atsA.state.applications().filter((a) => a.Candidate.Id === candidateId)).toHaveLength(1);
      expect(atsA.state.duplicateApplications()).toBe(0);
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
        broker.publish(Exchange.PlatformEvents, update.type, update);
      const newest = updates[updates.length - 1];
      await eventFor(RoutingKey.CandidateSynced, newest.id, { connectorId: atsAId });
      await eventFor(RoutingKey.CandidateSynced, newest.id, { connectorId: atsBId });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(atsACandidates(data.email)).toEqual([expect.objectContaining({ Mobile: '+44 7700 900008' })]);
      expect(atsBCandidates(data.email)).toEqual([expect.objectContaining({ mobile: '+44 7700 900008' })]);
    });
  });
});
