import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { RunningAtsASandbox } from '@connector/ats-a-sandbox';
import { createEvent, Exchange, OperationFailedCode, RoutingKey } from '@connector/contracts';
import { adminApi, eventually, type FileServer, startFileServer } from '@connector/testing';
import { type TestWorld, testWorld } from '@connector/test-world';

/**
 * `candidate.erased` end to end: the registry, auth-gateway, candidate-sync and document-service as processes,
 * the ATS-A sandbox over HTTP. A candidate reaches the ATS with an application and a CV, two of their events
 * end in the failure log, then the platform erases them: no table of any service keeps their name, email,
 * phone or answers, `candidate.erasure_completed` says what went, their later events are refused, and the
 * ATS keeps its record (the customer's system of record).
 *
 * ATS-A only: the connector is made through the registry's admin API with client credentials (the world's
 * `connect` goes through a stub registry), and ATS-A is the ATS with applications and documents.
 */
const ACCOUNT = 'acct_erasure';
const KEY = `key-${randomBytes(6).toString('hex')}`;
const CLIENT_ID = 'erasure-client';
const CLIENT_SECRET = `secret-${randomBytes(8).toString('hex')}`;

describe('candidate erasure (ats-a)', () => {
  let world: TestWorld;
  let atsA: RunningAtsASandbox;
  let files: FileServer;
  let connectorId: string;

  const api = adminApi({ baseUrl: () => `${world.service('connector-registry').url}/api/v1`, key: KEY });
  const publish = <T extends object>(type: string, data: T) => {
    const event = createEvent(type, ACCOUNT, data);
    world.broker.publish(Exchange.PlatformEvents, type, event);
    return event;
  };
  const eventFor = (type: string, sourceId: string, match: Record<string, unknown> = {}) =>
    world.eventFor(type, sourceId, match, 30_000);

  /** Every table of the suite's database (all services share it here) whose rows contain one of `needles`. */
  async function tablesHolding(needles: string[]): Promise<string[]> {
    const db = new Client({ connectionString: world.env.DATABASE_URL });
    await db.connect();
    try {
      const { rows: columns } = await db.query<{
        table_name: string;
        column_name: string;
        data_type: string;
      }>(
        `SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
           JOIN information_schema.tables t USING (table_schema, table_name)
          WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'`,
      );
      const tables = new Map<string, string[]>();
      for (const { table_name, column_name, data_type } of columns) {
        // bytea (a kept message body) as its bytes, everything else as its text.
        const text = data_type === 'bytea' ? `encode("${column_name}", 'escape')` : `"${column_name}"::text`;
        tables.set(table_name, [...(tables.get(table_name) ?? []), `coalesce(${text}, '')`]);
      }
      const holding: string[] = [];
      const patterns = needles.map((needle) => `%${needle}%`);
      for (const [table, texts] of tables) {
        const { rows } = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "${table}" WHERE concat_ws(' ', ${texts.join(', ')}) ILIKE ANY($1)`,
          [patterns],
        );
        if (rows[0].n > 0) holding.push(table);
      }
      return holding.sort();
    } finally {
      await db.end();
    }
  }

  beforeAll(async () => {
    files = await startFileServer();
    world = await testWorld({
      name: 'e2e_erasure',
      // document-service before candidate-sync: its queue is bound to candidate.synced before any is synced.
      services: ['connector-registry', 'auth-gateway', 'document-service'],
      env: { RETRY_DELAYS_MS: '300,600' },
      serviceEnv: { 'connector-registry': { ADMIN_API_KEYS: `${ACCOUNT}:${KEY}` } },
      sandboxes: ['ats-a'],
      vendorSandboxOptions: {
        'ats-a': { clients: [{ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }], seed: { vacancies: 5 } },
      },
      tap: [Exchange.ConnectorEvents],
    });
    await world.startService('candidate-sync');
    atsA = world.sandbox('ats-a').running as RunningAtsASandbox;
    const created = await api('POST', '/connectors', {
      body: {
        type: 'ats-a',
        name: 'Erasure ATS',
        config: { baseUrl: atsA.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
      },
    });
    expect(created).toMatchObject({ status: 201, body: { status: 'connected' } });
    connectorId = String(created.body.id);
  }, 180_000);

  afterAll(async () => {
    await world?.close();
    await files?.close();
  });

  it('removes the candidate from every table, says so, keeps the ATS record and refuses what comes later', async () => {
    const tag = randomBytes(4).toString('hex');
    const person = {
      candidateId: `cand-${tag}`,
      firstName: `Zebulon${tag}`,
      lastName: `Quixote${tag}`,
      email: `zq.${tag}@example.com`,
      phone: `+44 20 7946 ${tag.slice(0, 4)}`,
    };
    const answer = `I can start in ${tag} weeks`;
    const needles = [person.firstName, person.lastName, person.email, person.phone, answer];

    const candidate = publish(RoutingKey.CandidateCreated, person);
    const synced = await eventFor(RoutingKey.CandidateSynced, candidate.id, { connectorId });
    const externalId = Number(synced.data.externalId);
    const content = Buffer.from(`%PDF-1.7 CV of ${person.firstName} ${randomUUID()}`);
    const cv = publish(RoutingKey.DocumentUploaded, {
      documentId: `doc-${tag}`,
      candidateId: person.candidateId,
      kind: 'cv',
      fileName: 'cv.pdf',
      contentType: 'application/pdf',
      sizeBytes: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
      url: files.serve(content),
    });
    await eventFor(RoutingKey.DocumentSynced, cv.id, { action: 'uploaded' });
    const answers = [{ question: 'When can you start?', answer }];
    const application = publish(RoutingKey.ApplicationSubmitted, {
      applicationId: `app-${tag}`,
      candidateId: person.candidateId,
      vacancies: [{ connectorId, externalId: '3' }],
      answers,
    });
    await eventFor(RoutingKey.ApplicationSynced, application.id, { action: 'created' });
    // Two of their events end in the failure log with their data: a refused one and an invalid one.
    publish(RoutingKey.ApplicationSubmitted, {
      applicationId: `app-bad-${tag}`,
      candidateId: person.candidateId,
      vacancies: [{ connectorId, externalId: 'not-a-vacancy' }],
      answers,
    });
    publish(RoutingKey.CandidateUpdated, { ...person, address: { line1: 'Somewhere', countryCode: 'XX' } });
    await eventually(
      async () => ((await api('GET', '/failures')).body.failures as unknown[]).length === 2,
      30_000,
      'both failures in the log',
    );
    // The scan finds what is there: the failure log holds their data.
    expect(await tablesHolding(needles)).toEqual(['dead_letter']);

    const erased = publish(RoutingKey.CandidateErased, { candidateId: person.candidateId });
    const completed = await eventFor(RoutingKey.CandidateErasureCompleted, erased.id);
    expect(completed.data).toEqual({
      candidateId: person.candidateId,
      // Two application links: the refused vacancy's was claimed before the refusal.
      removed: { candidateLinks: 1, applicationLinks: 2, documentLinks: 1, candidateRefs: 1, deadLetters: 2 },
    });
    expect(world.events(RoutingKey.CandidateErasureCompleted)).toHaveLength(1);
    expect(await tablesHolding(needles)).toEqual([]);
    expect((await api('GET', '/failures')).body).toEqual({ failures: [] });
    // The ATS is the customer's system of record: untouched.
    expect(world.sandbox('ats-a').candidates(person.email)).toEqual([
      expect.objectContaining({ externalId: String(externalId) }),
    ]);

    // Later events about them are refused with a code, and kept nowhere.
    const patchesBefore = atsA.state.callCounts().byEndpoint['PATCH /api/candidates/{id}'] ?? 0;
    const later = [
      publish(RoutingKey.CandidateUpdated, { ...person, phone: '+44 20 0000 0000' }),
      publish(RoutingKey.ApplicationSubmitted, {
        applicationId: `app-late-${tag}`,
        candidateId: person.candidateId,
        vacancies: [{ connectorId, externalId: '4' }],
        answers,
      }),
      publish(RoutingKey.DocumentUploaded, { ...cv.data, documentId: `doc-late-${tag}` }),
    ];
    for (const event of later) {
      const refused = await eventFor(RoutingKey.OperationFailed, event.id);
      expect(refused.data).toMatchObject({
        sourceEventId: event.id,
        sourceType: event.type,
        retryable: false,
        code: OperationFailedCode.CandidateErased,
      });
    }
    expect(atsA.state.callCounts().byEndpoint['PATCH /api/candidates/{id}'] ?? 0).toBe(patchesBefore);
    expect(await tablesHolding(needles)).toEqual([]);
    expect((await api('GET', '/failures')).body).toEqual({ failures: [] });
  });

  it('records a deleted connector in the workers, whose retention job removes its data later', async () => {
    expect((await api('DELETE', `/connectors/${connectorId}`)).status).toBe(204);
    await eventually(
      async () => (await tablesHolding([connectorId])).includes('deleted_connector'),
      20_000,
      'the deleted connector recorded',
    );
  });
});
