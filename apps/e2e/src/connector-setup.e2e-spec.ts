import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { RunningAtsASandbox } from '@connector/ats-a-sandbox';
import type { RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import { driveLoginForm } from '@connector/ats-b-sandbox/testing';
import { Exchange, RoutingKey } from '@connector/contracts';
import { adminApi, eventually, TestBroker } from '@connector/testing';
import { type TestWorld, testWorld } from '@connector/test-world';

/**
 * The set-up flows of CONTRACT.md section 2, end to end: the admin API (connector-registry) and auth-gateway
 * as real processes, the ATS sandboxes over HTTP, RabbitMQ and Postgres. Each set-up flow is its vendor's
 * (ATS-A's client credentials, ATS-B's interactive login), so each has a block of its own.
 */
const KEY = `key-${randomBytes(6).toString('hex')}`;
const OTHER_KEY = `key-${randomBytes(6).toString('hex')}`;
const CLIENT_SECRET = `ats-a-secret-${randomBytes(8).toString('hex')}`;
const USER_PASSWORD = `pass-${randomBytes(6).toString('hex')}`;

describe('connector set-up through the admin API', () => {
  let world: TestWorld;
  const atsA = () => world.sandbox('ats-a').running as RunningAtsASandbox;
  const atsB = () => world.sandbox('ats-b').running as RunningAtsBSandbox;
  const registry = () => world.service('connector-registry');
  const responses: string[] = [];

  const registryApi = adminApi({
    baseUrl: () => `${registry().url}/api/v1`,
    key: KEY,
    seen: (text) => responses.push(text),
  });
  const api = (method: string, path: string, body?: unknown, key: string = KEY) =>
    registryApi(method, path, { body, key });

  async function dbRows(sql: string): Promise<unknown[]> {
    const db = new Client({ connectionString: world.env.DATABASE_URL });
    await db.connect();
    try {
      return (await db.query(sql)).rows;
    } finally {
      await db.end();
    }
  }

  beforeAll(async () => {
    world = await testWorld({
      name: 'e2e_setup',
      services: ['connector-registry', 'auth-gateway'],
      registry: 'real',
      env: { LOG_LEVEL: 'debug' },
      serviceEnv: { 'connector-registry': { ADMIN_API_KEYS: `acct_a:${KEY},acct_b:${OTHER_KEY}` } },
      // Logins of the suite's own, which its no-secret-anywhere check looks for.
      sandboxes: ['ats-a', 'ats-b'],
      vendorSandboxOptions: {
        'ats-a': { clients: [{ clientId: 'acme-id', clientSecret: CLIENT_SECRET }], seed: { vacancies: 3 } },
        'ats-b': { users: [{ username: 'recruiter', password: USER_PASSWORD }] },
      },
    });
  }, 120_000);

  afterAll(() => world?.close());

  describe('ATS-A (client credentials)', () => {
    const config = (clientSecret = CLIENT_SECRET) => ({
      baseUrl: `${atsA().url}/`,
      clientId: 'acme-id',
      clientSecret,
    });

    it('test → save → connected', async () => {
      expect(await api('POST', '/connectors/test', { type: 'ats-a', config: config() })).toMatchObject({
        status: 200,
        body: { ok: true },
      });
      const created = await api('POST', '/connectors', { type: 'ats-a', name: 'Acme ATS', config: config() });
      expect(created).toMatchObject({
        status: 201,
        body: {
          type: 'ats-a',
          name: 'Acme ATS',
          status: 'connected',
          accountId: 'acct_a',
          config: { baseUrl: atsA().url, clientId: 'acme-id' },
        },
      });
      expect(created.text).not.toContain(CLIENT_SECRET);
      const read = await api('GET', `/connectors/${String(created.body.id)}`);
      expect(read.body).toMatchObject({ status: 'connected' });
      // The gateway holds working credentials for it: the stored secret is sealed.
      const credentials = await dbRows(
        `SELECT * FROM connector_credential WHERE connector_id = '${String(created.body.id)}'`,
      );
      expect(credentials).toHaveLength(1);
      expect(JSON.stringify(credentials)).not.toContain(CLIENT_SECRET);
    });

    it('a wrong secret fails the test with words to act on, and is refused with 422 AUTH_FAILED, nothing saved', async () => {
      const test = await api('POST', '/connectors/test', { type: 'ats-a', config: config('wrong-secret') });
      expect(test).toMatchObject({ status: 200, body: { ok: false, error: { code: 'AUTH_FAILED' } } });
      expect(String((test.body.error as { message: string }).message)).toMatch(/client ID or client secret/);

      const before = await api('GET', '/connectors');
      const refused = await api('POST', '/connectors', {
        type: 'ats-a',
        name: 'Bad',
        config: config('wrong-secret'),
      });
      expect(refused).toMatchObject({ status: 422, body: { statusCode: 422, code: 'AUTH_FAILED' } });
      const after = await api('GET', '/connectors');
      expect(after.body).toEqual(before.body);
      expect(await dbRows(`SELECT 1 FROM connector WHERE name = 'Bad'`)).toHaveLength(0);
    });

    it('a status name the ATS does not offer fails the test and the create, naming the statuses it offers', async () => {
      const options = { openStatuses: ['Open', 'Live', 'Advertised'] };
      const test = await api('POST', '/connectors/test', { type: 'ats-a', config: config(), options });
      expect(test).toMatchObject({ status: 200, body: { ok: false, error: { code: 'UNKNOWN_STATUSES' } } });
      const message = String((test.body.error as { message: string }).message);
      expect(message).toContain('“Advertised”');
      expect(message).toContain('It offers: “Draft”, “Open”, “Live”, “On Hold”, “Closed”');

      const refused = await api('POST', '/connectors', {
        type: 'ats-a',
        name: 'Wrong statuses',
        config: config(),
        options,
      });
      expect(refused).toMatchObject({ status: 422, body: { code: 'UNKNOWN_STATUSES' } });
      expect(await dbRows(`SELECT 1 FROM connector WHERE name = 'Wrong statuses'`)).toHaveLength(0);

      // Names the ATS offers (in any case) pass, and the connector keeps them.
      const good = { openStatuses: ['open', 'On Hold'] };
      expect(
        await api('POST', '/connectors/test', { type: 'ats-a', config: config(), options: good }),
      ).toMatchObject({
        body: { ok: true },
      });
      const created = await api('POST', '/connectors', {
        type: 'ats-a',
        name: 'Own statuses',
        config: config(),
        options: good,
      });
      expect(created).toMatchObject({
        status: 201,
        body: { options: { openStatuses: ['open', 'On Hold'] } },
      });
    });

    it('deleting a connector erases its credentials', async () => {
      const created = await api('POST', '/connectors', {
        type: 'ats-a',
        name: 'Short-lived',
        config: config(),
      });
      const id = String(created.body.id);
      expect(await dbRows(`SELECT 1 FROM connector_credential WHERE connector_id = '${id}'`)).toHaveLength(1);
      expect((await api('DELETE', `/connectors/${id}`)).status).toBe(204);
      expect((await api('GET', `/connectors/${id}`)).status).toBe(404);
      expect(await dbRows(`SELECT 1 FROM connector_credential WHERE connector_id = '${id}'`)).toHaveLength(0);
    });
    it('never puts the client secret on the broker: its requests carry it sealed, in no header either', async () => {
      const broker = await TestBroker.connect(world.env.RABBITMQ_URL);
      try {
        // A queue of the test's own on auth-gateway's requests, as the broker would keep them on its disk.
        const tapped = await broker.tap(Exchange.Internal, 'auth.#');
        expect(await api('POST', '/connectors/test', { type: 'ats-a', config: config() })).toMatchObject({
          body: { ok: true },
        });
        const created = await api('POST', '/connectors', { type: 'ats-a', name: 'Tapped', config: config() });
        expect(created.status).toBe(201);
        const id = String(created.body.id);
        const updated = await api('PATCH', `/connectors/${id}`, { config: { clientSecret: CLIENT_SECRET } });
        expect(updated.status).toBe(200);

        const types = () => tapped.map((m) => m.fields.routingKey);
        const expected = [
          RoutingKey.AuthConnectionTest,
          RoutingKey.AuthCredentialsSave,
          RoutingKey.AuthCredentialsSave,
        ];
        await eventually(() => types().length >= 3, 10_000, 'the three requests tapped');
        expect(types()).toEqual(expected);
        const secret = Buffer.from(CLIENT_SECRET);
        for (const message of tapped) {
          const seen = Buffer.concat([message.content, Buffer.from(JSON.stringify(message.properties))]);
          for (const encoding of ['utf8', 'base64', 'hex'] as const) {
            expect([message.fields.routingKey, encoding, seen.includes(secret.toString(encoding))]).toEqual([
              message.fields.routingKey,
              encoding,
              false,
            ]);
          }
          const { data } = JSON.parse(message.content.toString()) as {
            data: { config: { clientSecret: unknown } };
          };
          expect(data.config.clientSecret).toEqual({
            v: 1,
            kid: expect.any(String),
            iv: expect.any(String),
            tag: expect.any(String),
            data: expect.any(String),
          });
        }
      } finally {
        await broker.close();
      }
    });
  });

  describe('ATS-B (interactive login)', () => {
    async function authorize(connectorId: string, key = KEY) {
      const answer = await api('POST', `/connectors/${connectorId}/authorize`, undefined, key);
      const cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0];
      return { answer, cookie, authorizeUrl: String(answer.body.authorizeUrl) };
    }
    const callback = (redirect: string, cookie: string) =>
      fetch(redirect, { headers: { cookie }, redirect: 'manual' });

    it('authorize → ATS login page → callback → connected', async () => {
      const created = await api('POST', '/connectors', {
        type: 'ats-b',
        name: 'Bullhorn',
        config: { routine: 'api-oauth', sendSmartCv: true },
      });
      expect(created.body).toMatchObject({ status: 'pending_authorization', options: { sendSmartCv: true } });
      const id = String(created.body.id);

      const { answer, cookie, authorizeUrl } = await authorize(id);
      expect(answer.status).toBe(200);
      expect(cookie).toMatch(/^oauth_nonce_[0-9a-f]{24}=/);
      expect(answer.headers.get('set-cookie')).toMatch(/HttpOnly/i);
      const redirect = await driveLoginForm(authorizeUrl, { username: 'recruiter', password: USER_PASSWORD });
      expect(redirect.startsWith(`${registry().url}/oauth/ats-b/callback?`)).toBe(true);

      const landed = await callback(redirect, cookie);
      expect(landed.status).toBe(302);
      expect(landed.headers.get('location')).toBe(`/admin/connectors/${id}?authorized=1`);
      expect((await api('GET', `/connectors/${id}`)).body).toMatchObject({ status: 'connected' });

      // The same callback again (a reused state) is refused and changes nothing.
      const again = await callback(redirect, cookie);
      expect(again.status).toBe(400);
      expect(await again.text()).toMatch(/<html/i);
      expect((await api('GET', `/connectors/${id}`)).body).toMatchObject({ status: 'connected' });
    });

    it('refuses a tampered state, a callback without the browser cookie, and an expired state', async () => {
      const created = await api('POST', '/connectors', {
        type: 'ats-b',
        name: 'B2',
        config: { routine: 'api-oauth', sendSmartCv: false },
      });
      const id = String(created.body.id);

      const first = await authorize(id);
      const redirect = new URL(
        await driveLoginForm(first.authorizeUrl, { username: 'recruiter', password: USER_PASSWORD }),
      );
      const tampered = new URL(redirect);
      tampered.searchParams.set('state', `${redirect.searchParams.get('state')!.slice(0, -3)}abc`);
      expect((await callback(tampered.toString(), first.cookie)).status).toBe(400);
      expect((await callback(redirect.toString(), '')).status).toBe(400);

      const second = await authorize(id);
      await dbRows(
        `UPDATE oauth_state SET expires_at = now() - interval '1 second' WHERE connector_id = '${id}' AND used_at IS NULL`,
      );
      const late = await driveLoginForm(second.authorizeUrl, {
        username: 'recruiter',
        password: USER_PASSWORD,
      });
      expect((await callback(late, second.cookie)).status).toBe(400);

      expect((await api('GET', `/connectors/${id}`)).body).toMatchObject({ status: 'pending_authorization' });
      expect(await dbRows(`SELECT 1 FROM connector_credential WHERE connector_id = '${id}'`)).toHaveLength(0);
    });

    it('two logins started in one browser both complete: each has its own cookie', async () => {
      const ids: string[] = [];
      for (const name of ['Parallel 1', 'Parallel 2']) {
        const created = await api('POST', '/connectors', {
          type: 'ats-b',
          name,
          config: { routine: 'api-oauth', sendSmartCv: false },
        });
        ids.push(String(created.body.id));
      }
      // Both started before either finishes, as with two tabs; the browser keeps both cookies.
      const logins = [await authorize(ids[0]), await authorize(ids[1])];
      expect(logins[0].cookie.split('=')[0]).not.toBe(logins[1].cookie.split('=')[0]);
      const jar = logins.map((l) => l.cookie).join('; ');
      for (const [i, login] of [...logins.entries()].reverse()) {
        const redirect = await driveLoginForm(login.authorizeUrl, {
          username: 'recruiter',
          password: USER_PASSWORD,
        });
        const landed = await callback(redirect, jar);
        expect(landed.status).toBe(302);
        expect(landed.headers.get('set-cookie')).toMatch(new RegExp(`^${login.cookie.split('=')[0]}=;`));
        expect((await api('GET', `/connectors/${ids[i]}`)).body).toMatchObject({ status: 'connected' });
      }
    });

    it("another account cannot authorize this account's connector", async () => {
      const created = await api('POST', '/connectors', {
        type: 'ats-b',
        name: 'B3',
        config: { routine: 'api-oauth', sendSmartCv: false },
      });
      const { answer } = await authorize(String(created.body.id), OTHER_KEY);
      expect(answer).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    });
  });

  it('no secret or token appears in an API response, the database in clear, or any log', async () => {
    const tokens = await dbRows('SELECT access_fingerprint FROM connector_credential');
    expect(tokens.length).toBeGreaterThan(0);
    const everything = [
      ...responses,
      ...world.processes.flatMap((p) => p.output),
      JSON.stringify(await dbRows('SELECT * FROM connector')),
      JSON.stringify(await dbRows('SELECT * FROM connector_credential')),
      JSON.stringify(await dbRows('SELECT * FROM oauth_state')),
    ].join('\n');
    for (const secret of [CLIENT_SECRET, USER_PASSWORD, KEY, OTHER_KEY])
      expect(everything).not.toContain(secret);
    // Tokens issued by the sandboxes during the run.
    const issued = [...atsA().state.tokens.recentlyIssued(), ...atsB().state.auth.recentlyIssued()];
    expect(issued.length).toBeGreaterThan(3);
    for (const token of issued) {
      expect(everything).not.toContain(token);
    }
  });
});
