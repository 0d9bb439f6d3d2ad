import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { Client } from 'pg';
import { driveLoginForm } from '@connector/ats-b-sandbox/testing';
import { createEvent, Exchange, RoutingKey } from '@connector/contracts';
import { adminApi, eventually } from '@connector/testing';
import { type TestWorld, testWorld } from '@connector/test-world';
import { hostileMessages } from './fuzz/hostile-events';
import { type OpenApiDocument, requestsFrom } from './fuzz/openapi-requests';

/**
 * Fuzzing from outside, against the running services: generated hostile events on `platform.events`,
 * generated requests for every route of the admin API's OpenAPI document, and tampered OAuth callbacks.
 * The seed is printed; FUZZ_SEED replays a run, FUZZ_RUNS scales it. Connectors are made through the real
 * registry's admin API: ATS-A's with client credentials, ATS-B's by its login form (the OAuth callbacks).
 */
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
const RUNS = Number(process.env.FUZZ_RUNS ?? 1);
const ACCOUNT = 'acct_fuzz';
const KEY = `key-${randomBytes(16).toString('hex')}`;
const CLIENT_SECRET = `secret-${randomBytes(8).toString('hex')}`;
const USER_PASSWORD = `pass-${randomBytes(6).toString('hex')}`;

describe(`fuzzing (seed ${SEED})`, () => {
  let world: TestWorld;
  let atsAConnectorId: string;
  let atsBConnectorId: string;
  const registry = () => world.service('connector-registry');
  const candidatesInAtsA = (email: string) => world.sandbox('ats-a').candidates(email);

  const api = adminApi({ baseUrl: () => `${registry().url}/api/v1`, key: KEY });

  async function rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    const db = new Client({ connectionString: world.env.DATABASE_URL });
    await db.connect();
    try {
      return (await db.query(sql, params)).rows as T[];
    } finally {
      await db.end();
    }
  }

  beforeAll(async () => {
    console.log(`fuzz seed ${SEED} (FUZZ_SEED=${SEED} replays this run)`);
    world = await testWorld({
      name: 'e2e_fuzz',
      services: ['connector-registry'],
      serviceEnv: {
        'connector-registry': { ADMIN_API_KEYS: `${ACCOUNT}:${KEY}` },
        'candidate-sync': { RETRY_DELAYS_MS: '200,400' },
        'document-service': { RETRY_DELAYS_MS: '200,400' },
      },
      sandboxes: ['ats-a', 'ats-b'],
      vendorSandboxOptions: {
        'ats-a': {
          clients: [{ clientId: 'fuzz-client', clientSecret: CLIENT_SECRET }],
          seed: { vacancies: 3 },
        },
        'ats-b': { users: [{ username: 'recruiter', password: USER_PASSWORD }] },
      },
      tap: [Exchange.ConnectorEvents],
    });
    await Promise.all([
      // The login comes back to the registry's own callback.
      world.startService('auth-gateway', { ATS_B_REDIRECT_URI: `${registry().url}/oauth/ats-b/callback` }),
      world.startService('candidate-sync'),
      world.startService('document-service'),
      // Mapping previews ask vacancy-sync: without it they answer 503 (a dependency down), not a fuzz finding.
      world.startService('vacancy-sync'),
    ]);
    const created = await api('POST', '/connectors', {
      body: {
        type: 'ats-a',
        name: 'Fuzz ATS-A',
        config: { baseUrl: world.sandbox('ats-a').url, clientId: 'fuzz-client', clientSecret: CLIENT_SECRET },
      },
    });
    expect(created.status).toBe(201);
    atsAConnectorId = String(created.body.id);
    const atsBCreated = await api('POST', '/connectors', {
      body: { type: 'ats-b', name: 'Fuzz ATS-B', config: { routine: 'api-oauth', sendSmartCv: false } },
    });
    atsBConnectorId = String(atsBCreated.body.id);
  }, 180_000);

  afterAll(() => world?.close());

  const healthy = async () => {
    for (const service of world.processes) {
      expect((await fetch(`${service.url}/health`)).status).toBe(200);
    }
  };

  it('dead-letters every hostile event with a reason, reports it, and goes on with the next valid one', async () => {
    const messages = hostileMessages(120 * RUNS, SEED);
    for (const message of messages) {
      world.broker.channel.publish(Exchange.PlatformEvents, message.routingKey, message.body, {
        persistent: true,
        contentType: 'application/json',
        messageId: message.messageId,
      });
    }
    const ids = messages.map((m) => m.messageId);
    const keptRows = () =>
      rows<{ message_id: string; reasons: string[] }>(
        `SELECT message_id, reasons FROM dead_letter WHERE message_id = ANY($1)`,
        [ids],
      );
    await eventually(
      async () => ((await keptRows()).length >= ids.length ? true : undefined),
      90_000,
      `all ${ids.length} hostile messages in the failure log`,
    ).catch(() => undefined); // the per-message check below names what is missing
    const kept = await keptRows();
    const byId = new Map(kept.map((row) => [row.message_id, row]));
    for (const message of messages) {
      const row = byId.get(message.messageId);
      expect({ kind: message.kind, kept: Boolean(row) }).toEqual({ kind: message.kind, kept: true });
      expect(row!.reasons.length).toBeGreaterThan(0);
      expect(row!.reasons.join(' ')).not.toMatch(/^\s*$/);
    }
    // Each one is reported as operation.failed, under its envelope id when it has one. The transport
    // dead-letters before it reports, so the failure log's row may be written before the report arrives.
    const envelopeIdOf = (message: (typeof messages)[number]): string => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(message.body.toString('utf8'));
      } catch {
        parsed = undefined;
      }
      return typeof parsed === 'object' &&
        parsed !== null &&
        typeof (parsed as { id?: unknown }).id === 'string'
        ? (parsed as { id: string }).id
        : message.messageId;
    };
    const envelopeIds = messages.map(envelopeIdOf);
    const reported = () =>
      new Set(world.events(RoutingKey.OperationFailed).map((e) => String(e.data.sourceEventId)));
    await eventually(
      async () => {
        const sourceIds = reported();
        return envelopeIds.every((id) => sourceIds.has(id)) ? true : undefined;
      },
      30_000,
      `all ${messages.length} hostile messages reported`,
    ).catch(() => undefined); // the per-message check below names what is missing
    const sourceIds = reported();
    for (const [i, message] of messages.entries()) {
      expect({ kind: message.kind, reported: sourceIds.has(envelopeIds[i]) }).toEqual({
        kind: message.kind,
        reported: true,
      });
    }
    await healthy();

    // The next valid event is processed, once.
    const candidateId = `cand-${randomUUID().slice(0, 8)}`;
    const email = `${candidateId}@example.com`;
    const valid = createEvent(RoutingKey.CandidateCreated, ACCOUNT, {
      candidateId,
      firstName: 'After',
      lastName: 'Fuzz',
      email,
    });
    world.broker.publish(Exchange.PlatformEvents, valid.type, valid);
    await world.eventFor(RoutingKey.CandidateSynced, valid.id, { connectorId: atsAConnectorId });
    expect(candidatesInAtsA(email)).toHaveLength(1);
  }, 240_000);

  it('refuses a message that reuses an id with other content, and creates nothing twice', async () => {
    const candidateId = `cand-${randomUUID().slice(0, 8)}`;
    const first = createEvent(RoutingKey.CandidateCreated, ACCOUNT, {
      candidateId,
      firstName: 'First',
      lastName: 'Content',
      email: `${candidateId}@example.com`,
    });
    world.broker.publish(Exchange.PlatformEvents, first.type, first);
    await world.eventFor(RoutingKey.CandidateSynced, first.id, { connectorId: atsAConnectorId });

    const other = { ...first, data: { ...first.data, email: `other-${candidateId}@example.com` } };
    world.broker.channel.publish(Exchange.PlatformEvents, other.type, Buffer.from(JSON.stringify(other)), {
      persistent: true,
      contentType: 'application/json',
      messageId: `reuse-${first.id}`,
    });
    const [kept] = await eventually(
      () =>
        rows<{ reasons: string[] }>(`SELECT reasons FROM dead_letter WHERE message_id = $1`, [
          `reuse-${first.id}`,
        ]).then((found) => (found.length > 0 ? found : undefined)),
      30_000,
      'the reused id in the failure log',
    );
    expect(kept.reasons.join(' ')).toMatch(/already received .*different content/i);
    expect(candidatesInAtsA(`${candidateId}@example.com`)).toHaveLength(1);
    expect(candidatesInAtsA(`other-${candidateId}@example.com`)).toHaveLength(0);
  }, 60_000);

  it('answers generated admin API requests with a 4xx error or a success, never a 5xx, saving nothing on error', async () => {
    const requests = fc
      .sample(
        requestsFrom(
          JSON.parse(readFileSync(join(__dirname, '../../../docs/openapi.json'), 'utf8')) as OpenApiDocument,
          { id: atsBConnectorId, runId: randomUUID(), failureId: randomUUID() },
          '/api/v1',
        ),
        { numRuns: 300 * RUNS, seed: SEED },
      )
      // Deleting the connector the run works with would end the run early; other deletes are generated.
      .filter((request) => !(request.method === 'DELETE' && request.path.includes(atsBConnectorId)));
    // What a request could save; runs that vacancy-sync starts on its own are left out.
    const saved = (c: Record<string, unknown>) => ({
      id: c.id,
      name: c.name,
      type: c.type,
      status: c.status,
      config: c.config,
      options: c.options,
    });
    const state = async () => ({
      connectors: ((await api('GET', '/connectors')).body.connectors as Array<Record<string, unknown>>).map(
        saved,
      ),
      mapping: (await api('GET', `/connectors/${atsBConnectorId}/mapping/versions`)).body,
    });
    const tally = { '2xx': 0, '4xx': 0 };
    for (const request of requests) {
      const before = await state();
      const answer = await api(request.method, request.path, { body: request.body, raw: request.raw });
      const report = { route: `${request.method} ${request.route}`, path: request.path.slice(0, 120) };
      expect({
        ...report,
        status: answer.status < 500 ? 'not 5xx' : `${answer.status} ${answer.text}`,
      }).toEqual({ ...report, status: 'not 5xx' });
      if (answer.status >= 400) {
        tally['4xx'] += 1;
        // 431: Node's HTTP parser refuses an over-long URL before any route sees it; no body of ours then.
        if (answer.status !== 431)
          expect({ ...report, body: answer.body }).toMatchObject({
            ...report,
            body: { statusCode: answer.status, code: expect.any(String), message: expect.any(String) },
          });
        expect({ ...report, state: await state() }).toEqual({ ...report, state: before });
      } else {
        tally['2xx'] += 1;
      }
    }
    console.log(`admin API fuzz: ${requests.length} requests, ${JSON.stringify(tally)}`);
    expect(tally['4xx']).toBeGreaterThan(requests.length / 2);
    await healthy();
  }, 600_000);

  it('refuses tampered, replayed, foreign, expired and missing OAuth callbacks; only the real one connects', async () => {
    // A connector of its own: the admin API fuzz above may have disabled or renamed the shared one.
    const created = await api('POST', '/connectors', {
      body: { type: 'ats-b', name: 'Fuzz ATS-B login', config: { routine: 'api-oauth', sendSmartCv: false } },
    });
    expect(created.status).toBe(201);
    const connectorId = String(created.body.id);
    const startLogin = async () => {
      const answer = await api('POST', `/connectors/${connectorId}/authorize`);
      expect(answer.status).toBe(200);
      const cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0];
      const redirect = new URL(
        await driveLoginForm(String(answer.body.authorizeUrl), {
          username: 'recruiter',
          password: USER_PASSWORD,
        }),
      );
      return {
        cookie,
        state: redirect.searchParams.get('state')!,
        code: redirect.searchParams.get('code')!,
        callback: `${redirect.origin}${redirect.pathname}`,
      };
    };
    const status = async () => (await api('GET', `/connectors/${connectorId}`)).body.status;
    const mutate = (text: string, at: number, by: string) =>
      `${text.slice(0, at % Math.max(text.length, 1))}${by}${text.slice((at % Math.max(text.length, 1)) + by.length)}`;

    type Part = 'own' | 'mutated' | 'foreign' | 'missing';
    const cases = fc.sample(
      fc
        .record({
          state: fc.constantFrom<Part>('own', 'mutated', 'foreign', 'missing'),
          code: fc.constantFrom<Part>('own', 'mutated', 'foreign', 'missing'),
          cookie: fc.constantFrom<Part>('own', 'mutated', 'foreign', 'missing'),
          expired: fc.boolean(),
          error: fc.option(fc.string({ maxLength: 300 })),
          at: fc.nat(),
          by: fc.string({ minLength: 1, maxLength: 4 }),
        })
        // An untampered callback must work (checked at the end): the own login's, or the other login's whole
        // (its state, code and cookie together are a real callback too, of that login).
        .filter(
          (c) =>
            !(
              c.state === c.code &&
              c.code === c.cookie &&
              (c.state === 'own' || c.state === 'foreign') &&
              !c.expired &&
              c.error === null
            ),
        ),
      { numRuns: 30 * RUNS, seed: SEED },
    );
    expect(await status()).toBe('pending_authorization');
    for (const tamper of cases) {
      const [own, foreign] = [await startLogin(), await startLogin()];
      if (tamper.expired) {
        await rows(`UPDATE oauth_state SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`);
      }
      const pick = (part: Part, ours: string, theirs: string) =>
        part === 'own'
          ? ours
          : part === 'foreign'
            ? theirs
            : part === 'mutated'
              ? mutate(ours, tamper.at, tamper.by)
              : undefined;
      const url = new URL(own.callback);
      const state = pick(tamper.state, own.state, foreign.state);
      const code = pick(tamper.code, own.code, foreign.code);
      const cookie = pick(tamper.cookie, own.cookie, foreign.cookie);
      if (state !== undefined) url.searchParams.set('state', state);
      if (code !== undefined) url.searchParams.set('code', code);
      if (tamper.error !== null) url.searchParams.set('error', tamper.error);
      const answer = await fetch(url, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
      const report = { tamper: JSON.stringify(tamper).slice(0, 200) };
      expect({ ...report, status: answer.status }).toEqual({ ...report, status: 400 });
      expect(await answer.text()).toMatch(/<html/i);
      expect({ ...report, connector: await status() }).toEqual({
        ...report,
        connector: 'pending_authorization',
      });
    }

    // The real callback connects, once; replayed, it is refused.
    const real = await startLogin();
    const url = new URL(real.callback);
    url.searchParams.set('state', real.state);
    url.searchParams.set('code', real.code);
    const landed = await fetch(url, { headers: { cookie: real.cookie }, redirect: 'manual' });
    expect(landed.status).toBe(302);
    expect(await status()).toBe('connected');
    const replayed = await fetch(url, { headers: { cookie: real.cookie }, redirect: 'manual' });
    expect(replayed.status).toBe(400);
    await healthy();
  }, 300_000);
});
