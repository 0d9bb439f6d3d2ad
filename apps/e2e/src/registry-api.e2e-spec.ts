import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { Client } from 'pg';
import { type ConnectorSnapshot, createEvent, Exchange, RoutingKey } from '@connector/contracts';
import { RabbitConnection, RpcClient, RpcError } from '@connector/messaging';
import { adminApi, eventually, type ServiceProcess, timesHandled, type TestBroker } from '@connector/testing';
import { type TestWorld, testWorld } from '@connector/test-world';

/**
 * The admin API of connector-registry, driven over HTTP against the real process, Postgres and RabbitMQ.
 * auth-gateway and vacancy-sync do not run here: what needs them is checked as "nobody answers" (503),
 * and a connector becomes connected the way the gateway would make it so, by `connector.status_changed`.
 */

const KEY_A = 'key-a';
const KEY_B = 'key-b';

describe('connector-registry admin API', () => {
  let world: TestWorld;
  let db: Client;
  let broker: TestBroker;
  let service: ServiceProcess;
  let connection: RabbitConnection;
  let rpc: RpcClient;

  const api = adminApi({ baseUrl: () => service.url, key: KEY_A });

  const createAtsB = async (name = 'ATS-B', key = KEY_A) => {
    const answer = await api('POST', '/api/v1/connectors', {
      key,
      body: { type: 'ats-b', name, config: { routine: 'api-oauth', sendSmartCv: true } },
    });
    expect(answer.status).toBe(201);
    return answer.body as { id: string; status: string };
  };

  const connectorStatus = async (id: string) =>
    (await api('GET', `/api/v1/connectors/${id}`)).body.status as string;

  /** What auth-gateway publishes after a successful ATS-B login, and what marks a connector connected. */
  const markConnected = async (id: string) => {
    broker.publish(
      Exchange.ConnectorEvents,
      RoutingKey.ConnectorStatusChanged,
      createEvent(RoutingKey.ConnectorStatusChanged, 'acct_a', { connectorId: id, status: 'connected' }),
    );
    await eventually(async () => (await connectorStatus(id)) === 'connected', 10_000, 'connected');
  };

  /** Waits until the service has handled a message and acknowledged it (the transport's debug line). */
  const taken = (event: { type: string; id: string }) =>
    eventually(() => timesHandled([service], event.type, event.id), 10_000, `message ${event.id} handled`);

  beforeAll(async () => {
    // connector-registry is started below, once the database holds what earlier versions left in it.
    world = await testWorld({
      name: 'e2e_registry',
      registry: 'real',
      env: { LOG_LEVEL: 'debug' },
      serviceEnv: {
        'connector-registry': {
          ADMIN_API_KEYS: `acct_a:${KEY_A},acct_b:${KEY_B}`,
          AUTH_GATEWAY_TIMEOUT_MS: '1000',
          VACANCY_SYNC_TIMEOUT_MS: '1000',
        },
      },
    });
    ({ broker } = world);
    db = new Client({ connectionString: world.env.DATABASE_URL });
    await db.connect();
    // What earlier versions left in the shared database: the inbox table, which the registry now drops.
    await db.query('CREATE TABLE inbox_message (id bigint PRIMARY KEY, message_id text NOT NULL)');
    service = await world.startService('connector-registry');
    connection = new RabbitConnection({ url: world.env.RABBITMQ_URL, name: 'registry-e2e' });
    rpc = new RpcClient(connection, 'connector-registry');
  }, 120_000);

  afterAll(async () => {
    await rpc?.close().catch(() => undefined);
    await connection?.close().catch(() => undefined);
    await db?.end();
    await world?.close();
  });

  it('drops the inbox table earlier versions kept (every handler is idempotent; it de-duplicated nothing)', async () => {
    const { rows } = await db.query("SELECT to_regclass('inbox_message') AS inbox");
    expect(rows).toEqual([{ inbox: null }]);
  });

  describe('API keys and errors', () => {
    it('answers 401 without a key or with a wrong one, in the error shape', async () => {
      for (const key of [null, 'wrong-key']) {
        const answer = await api('GET', '/api/v1/connectors', { key });
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual({ statusCode: 401, code: 'UNAUTHORIZED', message: expect.any(String) });
      }
    });

    it('answers 429 to wrong keys after too many from one address, never to a right key', async () => {
      // Another loopback address as the guessing client, so this suite's own requests stay unaffected.
      const fromOtherAddress = (key: string) =>
        new Promise<{ status: number; body: Record<string, unknown>; retryAfter?: string }>(
          (resolve, reject) => {
            const url = new URL(`${service.url}/api/v1/connectors`);
            const request = httpRequest(
              {
                host: url.hostname,
                port: url.port,
                path: url.pathname,
                localAddress: '127.0.0.2',
                headers: { authorization: `Bearer ${key}` },
              },
              (response) => {
                let text = '';
                response.on('data', (chunk: Buffer) => (text += chunk.toString()));
                response.on('end', () =>
                  resolve({
                    status: response.statusCode ?? 0,
                    body: JSON.parse(text) as Record<string, unknown>,
                    retryAfter: response.headers['retry-after'],
                  }),
                );
              },
            );
            request.on('error', reject);
            request.end();
          },
        );
      for (let i = 0; i < 10; i++) expect((await fromOtherAddress(`guess-${i}`)).status).toBe(401);
      const limited = await fromOtherAddress('guess-10');
      expect(limited).toEqual({
        status: 429,
        body: {
          statusCode: 429,
          code: 'TOO_MANY_REQUESTS',
          message: expect.stringMatching(/Too many wrong API keys/),
          details: { retryAfterSeconds: expect.any(Number) },
        },
        retryAfter: expect.stringMatching(/^\d+$/),
      });
      // A right key is never refused for the wrong ones others sent from the same address.
      expect((await fromOtherAddress(KEY_A)).status).toBe(200);
      expect((await api('GET', '/api/v1/connectors')).status).toBe(200);
    });

    it('answers an unknown route with 404 NOT_FOUND and malformed JSON with 400, never a stack', async () => {
      const unknown = await api('GET', '/api/v1/nothing-here');
      expect(unknown.body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
      const malformed = await api('POST', '/api/v1/connectors', { raw: '{"type":' });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
      expect(malformed.text).not.toMatch(/\n\s+at /);
    });

    it('answers a body it cannot read with a 4xx in the error shape: too large, broken or unknown encoding', async () => {
      const post = async (body: Buffer | string, headers: Record<string, string> = {}) => {
        const response = await fetch(`${service.url}/api/v1/connectors`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/json', ...headers },
          body,
        });
        const text = await response.text();
        expect(text).not.toMatch(/\n\s+at /);
        return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
      };
      const tooLarge = await post(JSON.stringify({ type: 'ats-b', name: 'x'.repeat(150_000), config: {} }));
      expect(tooLarge).toEqual({
        status: 413,
        body: { statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) },
      });
      for (const encoding of ['gzip', 'deflate', 'br']) {
        const broken = await post('{"this is": "not compressed"}', { 'content-encoding': encoding });
        expect({ encoding, ...broken }).toEqual({
          encoding,
          status: 400,
          body: { statusCode: 400, code: 'VALIDATION_FAILED', message: expect.any(String) },
        });
      }
      const unknownEncoding = await post('{}', { 'content-encoding': 'zstd-or-whatever' });
      expect(unknownEncoding.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
      const charset = await post('{}', { 'content-type': 'application/json; charset=klingon' });
      expect(charset.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    });

    it('refuses U+0000 in any string of a body (Postgres cannot store it), naming where it is', async () => {
      const { id } = await createAtsB('nul');
      const renamed = await api('PATCH', `/api/v1/connectors/${id}`, { body: { name: 'a\u0000b' } });
      expect(renamed.status).toBe(400);
      expect(renamed.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { fields: [{ field: 'name', problems: [expect.stringMatching(/U\+0000/)] }] },
      });
      const mapping = await api('PUT', `/api/v1/connectors/${id}/mapping`, {
        body: { fields: { title: { from: 'title' }, location: { constant: 'Re\u0000mote' } } },
      });
      expect(mapping.status).toBe(400);
      expect(mapping.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { fields: [{ field: 'fields.location.constant' }] },
      });
      const inKey = await api('PUT', `/api/v1/connectors/${id}/mapping`, {
        body: { fields: { 'ti\u0000tle': { from: 'title' } } },
      });
      expect(inKey.status).toBe(400);
      const created = await api('POST', '/api/v1/connectors', {
        body: { type: 'ats-b', name: 'x', config: { routine: 'api-oauth\u0000', sendSmartCv: true } },
      });
      expect(created.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { fields: [{ field: 'config.routine' }] },
      });
      expect((await api('GET', `/api/v1/connectors/${id}`)).body).toMatchObject({ name: 'nul' });
    });

    it('with TRUST_PROXY set, counts wrong keys per X-Forwarded-For client address', async () => {
      // A second registry behind a (loopback) proxy; stopped before any other test needs the queue.
      const proxied = await world.startService('connector-registry', {
        ADMIN_API_KEYS: `acct_a:${KEY_A}`,
        TRUST_PROXY: 'loopback',
      });
      try {
        const from = async (client: string, key: string) =>
          (
            await fetch(`${proxied.url}/api/v1/connectors`, {
              headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': `${client}, 127.0.0.1` },
            })
          ).status;
        for (let i = 0; i < 10; i++) expect(await from('203.0.113.7', `guess-${i}`)).toBe(401);
        expect(await from('203.0.113.7', 'guess-10')).toBe(429);
        expect(await from('203.0.113.7', KEY_A)).toBe(200);
        // Another client behind the same proxy (same socket address) is not counted with it.
        expect(await from('203.0.113.8', 'guess-0')).toBe(401);
      } finally {
        await proxied.stop();
      }
    });

    it('refuses unknown fields, listing each one', async () => {
      const answer = await api('POST', '/api/v1/connectors', {
        body: {
          type: 'ats-b',
          name: 'x',
          config: { routine: 'api-oauth', sendSmartCv: true, colour: 1 },
          extra: 1,
        },
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { fields: [{ field: 'extra', problems: ['property extra should not exist'] }] },
      });
      const nested = await api('POST', '/api/v1/connectors', {
        body: { type: 'ats-b', name: 'x', config: { routine: 'api-oauth', sendSmartCv: true, colour: 1 } },
      });
      expect(nested.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { fields: [{ field: 'config.colour' }] },
      });
      const wrongType = await api('POST', '/api/v1/connectors', {
        body: { type: 'ats-z', name: 'x', config: {} },
      });
      expect(wrongType.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { fields: [{ field: 'type' }] },
      });
    });
  });

  describe('connectors', () => {
    it('creates an ATS-B connector pending authorization, lists, reads and changes it', async () => {
      const created = await api('POST', '/api/v1/connectors', {
        body: { type: 'ats-b', name: 'Boston office', config: { routine: 'api-oauth', sendSmartCv: true } },
      });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      expect(created.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        accountId: 'acct_a',
        type: 'ats-b',
        name: 'Boston office',
        status: 'pending_authorization',
        options: { sendSmartCv: true, syncIntervalMinutes: 15, fullSyncEveryHours: 24, eventPollSeconds: 60 },
        config: { routine: 'api-oauth' },
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });

      const list = await api('GET', '/api/v1/connectors');
      expect((list.body.connectors as Array<{ id: string }>).map((c) => c.id)).toContain(id);
      expect((await api('GET', `/api/v1/connectors/${id}`)).body).toMatchObject({
        id,
        name: 'Boston office',
      });

      const patched = await api('PATCH', `/api/v1/connectors/${id}`, {
        body: { name: 'Boston', options: { sendSmartCv: false, syncIntervalMinutes: 5 } },
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        name: 'Boston',
        options: { sendSmartCv: false, syncIntervalMinutes: 5, fullSyncEveryHours: 24 },
      });
      const badOption = await api('PATCH', `/api/v1/connectors/${id}`, {
        body: { options: { dailyCallLimit: 5 } },
      });
      expect(badOption.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { fields: [{ field: 'options.dailyCallLimit' }] },
      });

      // Disabled and enabled again: enabling needs a connector that was connected before.
      const disabled = await api('PATCH', `/api/v1/connectors/${id}`, { body: { status: 'disabled' } });
      expect(disabled.body).toMatchObject({ status: 'disabled' });
      const refused = await api('PATCH', `/api/v1/connectors/${id}`, { body: { status: 'connected' } });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'INVALID_STATUS_CHANGE' });
      const badStatus = await api('PATCH', `/api/v1/connectors/${id}`, { body: { status: 'auth_failed' } });
      expect(badStatus.status).toBe(400);

      // null is no value: refused, the field named, nothing stored.
      for (const option of ['syncIntervalMinutes', 'fullSyncEveryHours', 'sendSmartCv']) {
        const nulled = await api('PATCH', `/api/v1/connectors/${id}`, {
          body: { options: { [option]: null } },
        });
        expect(nulled.status).toBe(400);
        expect(nulled.body).toMatchObject({
          code: 'VALIDATION_FAILED',
          details: { fields: [{ field: `options.${option}`, problems: [`${option} must not be null`] }] },
        });
      }
      const noName = await api('PATCH', `/api/v1/connectors/${id}`, { body: { name: null } });
      expect(noName.body).toMatchObject({ statusCode: 400, details: { fields: [{ field: 'name' }] } });
      expect((await api('GET', `/api/v1/connectors/${id}`)).body).toMatchObject({
        name: 'Boston',
        options: { sendSmartCv: false, syncIntervalMinutes: 5, fullSyncEveryHours: 24 },
      });
    });

    it('disables and enables a connected connector', async () => {
      const { id } = await createAtsB('to toggle');
      await markConnected(id);
      expect(
        (await api('PATCH', `/api/v1/connectors/${id}`, { body: { status: 'disabled' } })).body,
      ).toMatchObject({
        status: 'disabled',
      });
      expect(
        (await api('PATCH', `/api/v1/connectors/${id}`, { body: { status: 'connected' } })).body,
      ).toMatchObject({
        status: 'connected',
      });
    });

    it('answers 503 quickly when nobody answers for auth-gateway (ATS-A create, test, authorize)', async () => {
      const started = Date.now();
      const create = await api('POST', '/api/v1/connectors', {
        body: {
          type: 'ats-a',
          name: 'A',
          config: { baseUrl: 'https://a.example', clientId: 'c', clientSecret: 's' },
        },
      });
      expect(create.status).toBe(503);
      expect(create.body).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(create.text).not.toContain('"s"');
      const list = await api('GET', '/api/v1/connectors');
      expect((list.body.connectors as Array<{ type: string }>).some((c) => c.type === 'ats-a')).toBe(false);

      const test = await api('POST', '/api/v1/connectors/test', {
        body: { type: 'ats-a', config: { baseUrl: 'https://a.example', clientId: 'c', clientSecret: 's' } },
      });
      expect(test.status).toBe(503);
      const testB = await api('POST', '/api/v1/connectors/test', { body: { type: 'ats-b', config: {} } });
      expect(testB.status).toBe(200);
      expect(testB.body).toMatchObject({ ok: false, error: { code: 'AUTHORIZATION_REQUIRED' } });

      // A gateway queue that nobody consumes: the request waits, then times out (AUTH_GATEWAY_TIMEOUT_MS).
      const { queue } = await broker.channel.assertQueue('', { exclusive: true });
      await broker.channel.bindQueue(queue, Exchange.Internal, RoutingKey.AuthCredentialsSave);
      const slow = Date.now();
      const timedOut = await api('POST', '/api/v1/connectors', {
        body: {
          type: 'ats-a',
          name: 'A',
          config: { baseUrl: 'https://a.example', clientId: 'c', clientSecret: 's' },
        },
      });
      expect(timedOut.body).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });
      expect(Date.now() - slow).toBeGreaterThanOrEqual(900);
      expect(Date.now() - slow).toBeLessThan(5_000);
      await broker.channel.deleteQueue(queue);

      const { id } = await createAtsB('to authorize');
      const authorize = await api('POST', `/api/v1/connectors/${id}/authorize`);
      expect(authorize.status).toBe(503);
      expect(authorize.headers.get('set-cookie')).toBeNull();
    });

    it('refuses an OAuth callback without the browser cookie or with an ATS error, with a page and no redirect', async () => {
      const noCookie = await api('GET', '/oauth/ats-b/callback?code=abc&state=xyz', { key: null });
      expect(noCookie.status).toBe(400);
      expect(noCookie.headers.get('content-type')).toMatch(/text\/html/);
      expect(noCookie.text).toMatch(/not started in this browser/);
      const denied = await api('GET', '/oauth/ats-b/callback?error=access_denied&state=xyz', { key: null });
      expect(denied.status).toBe(400);
      expect(denied.text).toMatch(/access_denied/);
      expect(denied.headers.get('location')).toBeNull();
    });

    it('keeps each account to its own connectors: 404 everywhere for another account', async () => {
      const { id } = await createAtsB('only for A');
      const asB = (method: string, path: string, body?: unknown) => api(method, path, { key: KEY_B, body });
      const answers = [
        await asB('GET', `/api/v1/connectors/${id}`),
        await asB('PATCH', `/api/v1/connectors/${id}`, { name: 'mine now' }),
        await asB('DELETE', `/api/v1/connectors/${id}`),
        await asB('POST', `/api/v1/connectors/${id}/authorize`),
        await asB('GET', `/api/v1/connectors/${id}/mapping`),
        await asB('PUT', `/api/v1/connectors/${id}/mapping`, { fields: {} }),
        await asB('GET', `/api/v1/connectors/${id}/mapping/versions`),
        await asB('POST', `/api/v1/connectors/${id}/mapping/rollback`, { version: 1 }),
        await asB('POST', `/api/v1/connectors/${id}/runs`, {}),
        await asB('GET', `/api/v1/connectors/${id}/runs`),
        await asB('GET', `/api/v1/connectors/${id}/runs/${randomUUID()}`),
      ];
      for (const answer of answers) {
        expect(answer.body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
      }
      const listB = await asB('GET', '/api/v1/connectors');
      expect((listB.body.connectors as Array<{ id: string }>).map((c) => c.id)).not.toContain(id);
      expect((await api('GET', `/api/v1/connectors/${id}`)).body).toMatchObject({ name: 'only for A' });
    });

    it('deletes: a 404 afterwards, and workers no longer find it', async () => {
      const { id } = await createAtsB('to delete');
      const lookup = () =>
        rpc.request<ConnectorSnapshot>(
          createEvent(RoutingKey.ConnectorLookup, 'acct_a', { connectorId: id }),
          5_000,
        );
      expect(await lookup()).toMatchObject({
        id,
        accountId: 'acct_a',
        type: 'ats-b',
        status: 'pending_authorization',
        options: { sendSmartCv: true },
        config: { routine: 'api-oauth' },
        mapping: { version: 1, mapping: { fields: { title: { from: 'title' } } } },
      });
      const byAccount = await rpc.request<ConnectorSnapshot[]>(
        createEvent(RoutingKey.ConnectorsByAccount, 'acct_a', { accountId: 'acct_a' }),
        5_000,
      );
      expect(byAccount.map((c) => c.id)).toContain(id);
      expect(byAccount.every((c) => c.accountId === 'acct_a')).toBe(true);

      const tap = await broker.tap(Exchange.ConnectorEvents, RoutingKey.ConnectorStatusChanged);
      expect((await api('DELETE', `/api/v1/connectors/${id}`)).status).toBe(204);
      expect((await api('GET', `/api/v1/connectors/${id}`)).status).toBe(404);
      expect((await api('DELETE', `/api/v1/connectors/${id}`)).status).toBe(404);
      await expect(lookup()).rejects.toEqual(expect.objectContaining({ code: 'NOT_FOUND' }) as RpcError);
      const told = await eventually(
        () =>
          tap.find(
            (m) =>
              (JSON.parse(m.content.toString()) as { data: { connectorId: string } }).data.connectorId === id,
          ),
        5_000,
        'connector.status_changed for the deleted connector',
      );
      expect(JSON.parse(told.content.toString())).toMatchObject({
        data: { connectorId: id, status: 'disabled', reason: 'deleted' },
      });
    });
  });

  describe('job mapping', () => {
    it('starts at the default v1, validates saves, keeps every version and rolls back', async () => {
      const { id } = await createAtsB('mapped');
      const base = `/api/v1/connectors/${id}/mapping`;
      const v1 = await api('GET', base);
      expect(v1.body).toMatchObject({ version: 1, mapping: { fields: { title: { from: 'title' } } } });

      const invalid = await api('PUT', base, {
        body: { fields: { title: { from: 'Title' }, location: { constant: 'Remote' } } },
      });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toMatchObject({ code: 'INVALID_MAPPING' });
      expect((invalid.body.details as { errors: string[] }).errors).toEqual(
        expect.arrayContaining([
          'fields.description: is required',
          'fields.title.from: unknown source path "Title" for ats-b',
        ]),
      );

      const mapping = {
        fields: {
          title: { from: 'title' },
          location: { from: 'address.city', default: 'Remote' },
          description: { from: 'description' },
          requirements: { constant: '' },
          status: { from: 'status' },
          company: { from: 'clientCorporation.name' },
        },
        publish: { statuses: ['Accepting Candidates'] },
      };
      const v2 = await api('PUT', base, { body: mapping });
      expect(v2.status).toBe(200);
      expect(v2.body).toMatchObject({ version: 2, mapping });
      expect((await api('GET', base)).body).toMatchObject({ version: 2, mapping });

      const rollback = await api('POST', `${base}/rollback`, { body: { version: 1 } });
      expect(rollback.status).toBe(200);
      expect(rollback.body).toMatchObject({ version: 3, mapping: v1.body.mapping });
      const versions = await api('GET', `${base}/versions`);
      expect((versions.body.versions as Array<{ version: number }>).map((v) => v.version)).toEqual([3, 2, 1]);
      expect((await api('POST', `${base}/rollback`, { body: { version: 9 } })).status).toBe(404);
    });

    it('answers 503 for a preview when vacancy-sync does not answer, and 400 for an invalid one', async () => {
      const { id } = await createAtsB('preview');
      const preview = await api('POST', `/api/v1/connectors/${id}/mapping/preview`, { body: { limit: 3 } });
      expect(preview.status).toBe(503);
      expect(preview.body).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
      const invalid = await api('POST', `/api/v1/connectors/${id}/mapping/preview`, {
        body: { mapping: { fields: {} } },
      });
      expect(invalid.body).toMatchObject({ code: 'INVALID_MAPPING' });
      const tooMany = await api('POST', `/api/v1/connectors/${id}/mapping/preview`, { body: { limit: 21 } });
      expect(tooMany.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    });
  });

  describe('event feed (vacancy-sync answers)', () => {
    it('answers 503 quickly when vacancy-sync does not answer, 404 for another account', async () => {
      const { id } = await createAtsB('feed-unanswered');
      const started = Date.now();
      const unanswered = await api('GET', `/api/v1/connectors/${id}/event-feed`);
      expect(unanswered.status).toBe(503);
      expect(unanswered.body).toMatchObject({
        code: 'DEPENDENCY_UNAVAILABLE',
        message: 'vacancy-sync did not answer in time; try again in a moment',
      });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect((await api('GET', `/api/v1/connectors/${id}/event-feed`, { key: KEY_B })).status).toBe(404);
    });

    it("answers vacancy-sync's status of the connector, asked over the broker", async () => {
      const { id } = await createAtsB('feed');
      // A fake vacancy-sync: takes the request from connector.internal and answers into the reply queue.
      const asked: Array<{ accountId: string; data: { connectorId: string } }> = [];
      const { queue } = await broker.channel.assertQueue('', { exclusive: true, autoDelete: true });
      await broker.channel.bindQueue(queue, Exchange.Internal, RoutingKey.VacancyEventFeedRequested);
      const { consumerTag } = await broker.channel.consume(
        queue,
        (message) => {
          if (!message) return;
          const request = JSON.parse(message.content.toString()) as (typeof asked)[number];
          asked.push(request);
          const reply = {
            ok: true,
            data: {
              connectorId: request.data.connectorId,
              mode: 'events',
              pollSeconds: 60,
              lastReadAt: '2026-11-28T04:00:00.000Z',
            },
          };
          broker.channel.publish(
            Exchange.Replies,
            String(message.properties.replyTo),
            Buffer.from(JSON.stringify(reply)),
            {
              correlationId: message.properties.correlationId as string,
              contentType: 'application/json',
              // As vacancy-sync answers: the asker believes a reply only from the service that takes the request.
              userId: broker.user,
            },
          );
        },
        { noAck: true },
      );
      try {
        const feed = await api('GET', `/api/v1/connectors/${id}/event-feed`);
        expect(feed.status).toBe(200);
        expect(feed.body).toEqual({
          connectorId: id,
          mode: 'events',
          pollSeconds: 60,
          lastReadAt: '2026-11-28T04:00:00.000Z',
        });
        expect(asked).toEqual([expect.objectContaining({ accountId: 'acct_a', data: { connectorId: id } })]);
      } finally {
        await broker.channel.cancel(consumerTag);
        await broker.channel.deleteQueue(queue);
      }
    });

    it('refuses an eventPollSeconds outside 5…3600, naming it', async () => {
      const { id } = await createAtsB('feed-option');
      const tooOften = await api('PATCH', `/api/v1/connectors/${id}`, {
        body: { options: { eventPollSeconds: 4 } },
      });
      expect(tooOften.status).toBe(400);
      expect(tooOften.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: {
          fields: [
            { field: 'options.eventPollSeconds', problems: ['eventPollSeconds must not be less than 5'] },
          ],
        },
      });
      const patched = await api('PATCH', `/api/v1/connectors/${id}`, {
        body: { options: { eventPollSeconds: 10 } },
      });
      expect(patched.body).toMatchObject({ options: { eventPollSeconds: 10, sendSmartCv: true } });
    });
  });

  describe('runs', () => {
    it('runs only a connected connector', async () => {
      const { id } = await createAtsB('pending');
      const answer = await api('POST', `/api/v1/connectors/${id}/runs`, { body: {} });
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({ code: 'CONNECTOR_NOT_CONNECTED' });
    });

    it('queues one run at a time, asks vacancy-sync, and follows its progress to completion', async () => {
      const { id } = await createAtsB('runner');
      await markConnected(id);
      const requested = await broker.tap(Exchange.Internal, RoutingKey.RunRequested);

      const first = await api('POST', `/api/v1/connectors/${id}/runs`, { body: { mode: 'full' } });
      expect(first.status).toBe(202);
      expect(first.body).toEqual({ runId: expect.any(String), status: 'queued' });
      const runId = first.body.runId as string;
      const second = await api('POST', `/api/v1/connectors/${id}/runs`, { body: {} });
      expect(second.status).toBe(409);
      expect(second.body).toMatchObject({ code: 'RUN_IN_PROGRESS', details: { runId } });

      const request = await eventually(() => requested[0], 5_000, 'run.requested');
      expect(JSON.parse(request.content.toString())).toMatchObject({
        type: 'run.requested',
        accountId: 'acct_a',
        data: { connectorId: id, runId, mode: 'full' },
      });

      const runPath = `/api/v1/connectors/${id}/runs/${runId}`;
      expect((await api('GET', runPath)).body).toMatchObject({ id: runId, status: 'queued', mode: 'full' });

      const progress = (fetched: number, apiCalls: number) =>
        createEvent(RoutingKey.RunProgress, 'acct_a', {
          connectorId: id,
          runId,
          status: 'running',
          fetched,
          upserted: 2,
          unchanged: 1,
          apiCalls,
        });
      broker.publish(Exchange.Internal, RoutingKey.RunProgress, progress(3, 4));
      const running = await eventually(
        async () => {
          const body = (await api('GET', runPath)).body;
          return body.status === 'running' && body;
        },
        10_000,
        'run running',
      );
      expect(running).toMatchObject({
        counts: { fetched: 3, upserted: 2, unchanged: 1, closed: 0 },
        apiCalls: 4,
      });
      expect((running as { startedAt?: string }).startedAt).toEqual(expect.any(String));

      broker.publish(
        Exchange.ConnectorEvents,
        RoutingKey.RunCompleted,
        createEvent(RoutingKey.RunCompleted, 'acct_a', {
          connectorId: id,
          runId,
          status: 'succeeded',
          counts: { fetched: 10, upserted: 4, unchanged: 6, closed: 1 },
          apiCalls: 12,
          warnings: [{ code: 'UNKNOWN_STATUSES', message: 'ATS-A does not offer “Advertised”.' }],
        }),
      );
      const done = await eventually(
        async () => {
          const body = (await api('GET', runPath)).body;
          return body.status === 'succeeded' && body;
        },
        10_000,
        'run succeeded',
      );
      const final = { counts: { fetched: 10, upserted: 4, unchanged: 6, closed: 1 }, apiCalls: 12 };
      expect(done).toMatchObject({
        ...final,
        finishedAt: expect.any(String),
        errors: [],
        warnings: [{ code: 'UNKNOWN_STATUSES', message: 'ATS-A does not offer “Advertised”.' }],
      });

      const late = progress(50, 60);
      broker.publish(Exchange.Internal, RoutingKey.RunProgress, late);
      await taken(late);
      expect((await api('GET', runPath)).body).toMatchObject({ status: 'succeeded', ...final });

      const history = await api('GET', `/api/v1/connectors/${id}/runs?limit=5`);
      expect((history.body.runs as Array<{ id: string }>).map((r) => r.id)).toEqual([runId]);
      expect((await api('GET', `/api/v1/connectors/${id}`)).body).toMatchObject({
        lastRun: { id: runId, status: 'succeeded' },
      });
      expect((await api('GET', `/api/v1/connectors/${id}/runs?limit=0`)).status).toBe(400);
      expect((await api('GET', `/api/v1/connectors/${id}/runs/not-a-uuid`)).status).toBe(404);

      // Finished: a new run may start.
      expect((await api('POST', `/api/v1/connectors/${id}/runs`, { body: {} })).status).toBe(202);
    });

    it('records a run vacancy-sync started by itself (its schedule), so every run shows in the history', async () => {
      const { id } = await createAtsB('scheduled');
      await markConnected(id);
      const runId = randomUUID();
      const running = createEvent(RoutingKey.RunProgress, 'acct_a', {
        connectorId: id,
        runId,
        status: 'running',
        fetched: 5,
        upserted: 5,
        unchanged: 0,
        apiCalls: 2,
        mode: 'full',
      });
      broker.publish(Exchange.Internal, RoutingKey.RunProgress, running);
      const runPath = `/api/v1/connectors/${id}/runs/${runId}`;
      const seen = await eventually(
        async () => {
          const answer = await api('GET', runPath);
          return answer.status === 200 && answer.body;
        },
        10_000,
        'the scheduled run recorded',
      );
      expect(seen).toMatchObject({ id: runId, status: 'running', mode: 'full', apiCalls: 2 });
      // While it runs, Run waits for it like for any other.
      expect((await api('POST', `/api/v1/connectors/${id}/runs`, { body: {} })).status).toBe(409);

      broker.publish(
        Exchange.ConnectorEvents,
        RoutingKey.RunCompleted,
        createEvent(RoutingKey.RunCompleted, 'acct_a', {
          connectorId: id,
          runId,
          status: 'succeeded',
          counts: { fetched: 5, upserted: 5, unchanged: 0, closed: 0 },
          apiCalls: 2,
        }),
      );
      await eventually(
        async () => (await api('GET', runPath)).body.status === 'succeeded',
        10_000,
        'completed',
      );

      // Another account's events never create runs on this connector.
      const foreign = randomUUID();
      const event = createEvent(RoutingKey.RunProgress, 'acct_b', { ...running.data, runId: foreign });
      broker.publish(Exchange.Internal, RoutingKey.RunProgress, event);
      await taken(event);
      expect((await api('GET', `/api/v1/connectors/${id}/runs/${foreign}`)).status).toBe(404);
    });
  });

  describe('OpenAPI', () => {
    it('serves the UI at /api/docs and the document at /api/docs-json', async () => {
      const ui = await api('GET', '/api/docs', { key: null });
      expect(ui.status).toBe(200);
      expect(ui.text).toMatch(/swagger/i);
      // Its own scripts only, framed by no one; its assets too.
      for (const path of ['/api/docs', '/api/docs/swagger-ui-init.js']) {
        const csp = (await fetch(`${service.url}${path}`)).headers.get('content-security-policy') ?? '';
        expect([path, csp]).toEqual([path, expect.stringContaining("script-src 'self';")]);
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      }
      const document = await api('GET', '/api/docs-json', { key: null });
      expect(document.status).toBe(200);
      expect(Object.keys(document.body.paths as object)).toEqual(
        expect.arrayContaining([
          '/api/v1/connectors',
          '/api/v1/connectors/{id}',
          '/api/v1/connectors/{id}/mapping',
          '/api/v1/connectors/{id}/runs',
          '/api/v1/connectors/{id}/authorize',
        ]),
      );
      const list = (document.body.paths as Record<string, { get: { responses: object } }>)[
        '/api/v1/connectors'
      ];
      expect(Object.keys(list.get.responses)).toEqual(expect.arrayContaining(['401', '429']));
      // A run's warnings are part of its documented shape.
      const schemas = (document.body.components as { schemas: Record<string, { properties: object }> })
        .schemas;
      expect(Object.keys(schemas['RunResponse'].properties)).toEqual(
        expect.arrayContaining(['warnings', 'errors']),
      );
      expect(Object.keys(schemas['RunWarningResponse'].properties)).toEqual(['code', 'message']);
    });
  });
});
