import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { Client } from 'pg';
import { startAtsASandbox, type RunningAtsASandbox } from '@connector/ats-a-sandbox';
import { driveLoginForm, startAtsBSandbox, type RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import {
  type AtsAccess,
  type AuthorizationStartReply,
  type ConnectionTestReply,
  createEvent,
  credentialFingerprint,
  type EventEnvelope,
  Exchange,
  RoutingKey,
} from '@connector/contracts';
import { RabbitConnection, RpcClient } from '@connector/messaging';
import {
  createTestDatabase,
  createTestVhost,
  eventually,
  rabbitUrl,
  startService,
  type ServiceProcess,
  type TestDatabase,
  type TestVhost,
  TestBroker,
} from '@connector/testing';

const ACCOUNT = 'acct_gateway';
const CLIENT_SECRET = `secret-${randomBytes(8).toString('hex')}`;

describe('auth-gateway', () => {
  let database: TestDatabase;
  let atsA: RunningAtsASandbox;
  let atsB: RunningAtsBSandbox;
  const gateways: ServiceProcess[] = [];
  let connection: RabbitConnection;
  let rpc: RpcClient;
  let broker: TestBroker;
  let statusEvents: Awaited<ReturnType<TestBroker['tap']>>;
  let silentServer: Server;
  let silentPort: number;

  const request = <T>(type: string, data: object, timeoutMs = 20_000) =>
    rpc.request<T>(createEvent(type, ACCOUNT, data), timeoutMs);
  const atsAConfig = (overrides: object = {}) => ({
    baseUrl: `${atsA.url}/api/`, // pasted with /api and a trailing slash, as users do
    clientId: 'demo-client',
    clientSecret: CLIENT_SECRET,
    ...overrides,
  });

  let vhost: TestVhost;
  const previousRabbitUrl = process.env.RABBITMQ_URL;

  beforeAll(async () => {
    // A vhost of its own: gateways other suites run on this broker must not answer this suite's requests.
    vhost = await createTestVhost('e2e_gateway');
    process.env.RABBITMQ_URL = vhost.url;
    database = await createTestDatabase('e2e_gateway');
    atsA = await startAtsASandbox({
      clients: [{ clientId: 'demo-client', clientSecret: CLIENT_SECRET }],
      seed: { vacancies: 5 },
    });
    // Access tokens shorter than the gateway's renewal margin: every renewal refreshes, then logs in.
    atsB = await startAtsBSandbox({ accessTokenTtlSeconds: 30 });
    // A host that accepts connections and never answers: the connection test must give up by itself.
    silentServer = createServer(() => undefined);
    await new Promise<void>((resolve) => silentServer.listen(0, '127.0.0.1', resolve));
    silentPort = (silentServer.address() as { port: number }).port;

    broker = await TestBroker.connect();
    statusEvents = await broker.tap(Exchange.ConnectorEvents, RoutingKey.ConnectorStatusChanged);
    const env = {
      DATABASE_URL: database.url,
      RABBITMQ_URL: rabbitUrl(),
      ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      ATS_B_OAUTH_URL: atsB.oauthUrl,
      ATS_B_REST_LOGIN_URL: atsB.restLoginUrl,
      ATS_B_REDIRECT_URI: 'http://127.0.0.1:3999/oauth/ats-b/callback',
      LOG_LEVEL: 'debug',
    };
    // Two gateway processes, as in production: renewals must be coordinated between them.
    gateways.push(
      ...(await Promise.all([startService('auth-gateway', env), startService('auth-gateway', env)])),
    );
    connection = new RabbitConnection({ url: rabbitUrl(), name: 'e2e-gateway' });
    rpc = new RpcClient(connection);
  }, 120_000);

  afterAll(async () => {
    await rpc?.close();
    await connection?.close();
    await Promise.all(gateways.map((g) => g.stop()));
    await broker?.close();
    await atsA?.close();
    await atsB?.close();
    silentServer?.close();
    await database?.drop();
    await vhost?.drop();
    process.env.RABBITMQ_URL = previousRabbitUrl;
  });

  describe('ATS-A set-up', () => {
    it('passes the connection test with good credentials, without storing anything', async () => {
      const reply = await request<ConnectionTestReply>(RoutingKey.AuthConnectionTest, {
        type: 'ats-a',
        config: atsAConfig(),
      });
      expect(reply).toEqual({ ok: true });
      expect(atsA.state.callCounts().byEndpoint).toMatchObject({
        'POST /api/token': 1,
        'GET /api/options/dropdown/{id}': 1,
      });
      const db = new Client({ connectionString: database.url });
      await db.connect();
      expect((await db.query('SELECT count(*)::int AS n FROM connector_credential')).rows[0].n).toBe(0);
      await db.end();
    });

    it('refuses status names the ATS does not offer, naming those it offers, in the same one read', async () => {
      atsA.state.resetCalls();
      const reply = await request<ConnectionTestReply>(RoutingKey.AuthConnectionTest, {
        type: 'ats-a',
        config: atsAConfig(),
        openStatuses: ['Open', 'Advertised'],
      });
      expect(reply).toEqual({
        ok: false,
        error: { code: 'UNKNOWN_STATUSES', message: expect.stringContaining('“Advertised”') },
      });
      expect(reply.ok === false && reply.error.message).toMatch(/It offers: “Draft”, “Open”, “Live”/);
      expect(atsA.state.callCounts().byEndpoint['GET /api/options/dropdown/{id}']).toBe(1);
    });

    it('says what to do when the secret is wrong', async () => {
      const reply = await request<ConnectionTestReply>(RoutingKey.AuthConnectionTest, {
        type: 'ats-a',
        config: atsAConfig({ clientSecret: 'wrong' }),
      });
      expect(reply).toEqual({
        ok: false,
        error: {
          code: 'AUTH_FAILED',
          message: expect.stringMatching(/refused the client ID or client secret/),
        },
      });
    });

    it('gives up on an unreachable or silent host within 10 s', async () => {
      const refused = await request<ConnectionTestReply>(RoutingKey.AuthConnectionTest, {
        type: 'ats-a',
        config: atsAConfig({ baseUrl: 'http://127.0.0.1:9' }),
      });
      expect(refused).toMatchObject({ ok: false, error: { code: 'UNREACHABLE' } });

      const started = Date.now();
      const silent = await request<ConnectionTestReply>(RoutingKey.AuthConnectionTest, {
        type: 'ats-a',
        config: atsAConfig({ baseUrl: `http://127.0.0.1:${silentPort}` }),
      });
      expect(silent).toMatchObject({
        ok: false,
        error: { code: 'UNREACHABLE', message: expect.stringMatching(/10 s/) },
      });
      expect(Date.now() - started).toBeLessThan(11_500);
    }, 30_000);

    it('stores the credentials sealed, and hands out a token that renews once when the ATS revokes it', async () => {
      const connectorId = randomUUID();
      const saved = await request<{ baseUrl: string }>(RoutingKey.AuthCredentialsSave, {
        connectorId,
        type: 'ats-a',
        config: atsAConfig(),
      });
      expect(saved).toEqual({ baseUrl: atsA.url, openStatuses: ['Open', 'Live'] });

      const db = new Client({ connectionString: database.url });
      await db.connect();
      const dump = JSON.stringify((await db.query('SELECT * FROM connector_credential')).rows);
      await db.end();
      expect(dump).not.toContain(CLIENT_SECRET);

      const first = await request<AtsAccess>(RoutingKey.CredentialsRequested, { connectorId });
      expect(first).toMatchObject({ type: 'ats-a', baseUrl: atsA.url });
      expect(dump).not.toContain((first as { accessToken: string }).accessToken);
      const again = await request<AtsAccess>(RoutingKey.CredentialsRequested, { connectorId });
      expect(again).toEqual(first); // cached, no new token

      atsA.state.setFaults({ revokeTokens: true });
      const tokensBefore = atsA.state.callCounts().byEndpoint['POST /api/token'] ?? 0;
      const rejected = credentialFingerprint((first as { accessToken: string }).accessToken);
      const renewed = await Promise.all(
        Array.from({ length: 10 }, () =>
          request<AtsAccess>(RoutingKey.CredentialsRequested, { connectorId, rejected }),
        ),
      );
      expect(new Set(renewed.map((a) => (a as { accessToken: string }).accessToken)).size).toBe(1);
      expect(atsA.state.callCounts().byEndpoint['POST /api/token']).toBe(tokensBefore + 1);
      const works = await fetch(`${atsA.url}/api/options/dropdown/50`, {
        headers: { authorization: `Bearer ${(renewed[0] as { accessToken: string }).accessToken}` },
      });
      expect(works.status).toBe(200);
    });
  });

  describe('ATS-B authorization', () => {
    const start = (connectorId: string, browserNonce: string) =>
      request<AuthorizationStartReply>(RoutingKey.AuthAuthorizationStart, {
        connectorId,
        adminId: 'admin-1',
        browserNonce,
      });
    const complete = (code: string, state: string, browserNonce: string) =>
      request<{ connectorId: string; accountId: string }>(RoutingKey.AuthAuthorizationComplete, {
        code,
        state,
        browserNonce,
      });
    const login = async (authorizeUrl: string) => {
      const callback = new URL(
        await driveLoginForm(authorizeUrl, { username: 'recruiter', password: 'recruiter-pass' }),
      );
      return { code: callback.searchParams.get('code')!, state: callback.searchParams.get('state')! };
    };

    it('completes a login through the ATS login page, and refuses the same state again', async () => {
      const connectorId = randomUUID();
      const { authorizeUrl } = await start(connectorId, 'nonce-1');
      const url = new URL(authorizeUrl);
      expect(url.origin + url.pathname).toBe(`${atsB.oauthUrl}/authorize`);
      expect(url.searchParams.get('state')).toMatch(/^[\w-]{43}$/);

      const { code, state } = await login(authorizeUrl);
      expect(await complete(code, state, 'nonce-1')).toEqual({ connectorId, accountId: ACCOUNT });
      await expect(complete(code, state, 'nonce-1')).rejects.toMatchObject({ code: 'INVALID_STATE' });

      const access = (await request<AtsAccess>(RoutingKey.CredentialsRequested, { connectorId })) as Extract<
        AtsAccess,
        { type: 'ats-b' }
      >;
      const ping = await fetch(`${access.restUrl}ping`, { headers: { BhRestToken: access.bhRestToken } });
      expect(ping.status).toBe(200);
    });

    it('refuses a tampered state, another browser’s callback, and an expired state, changing nothing', async () => {
      const connectorId = randomUUID();
      const { authorizeUrl } = await start(connectorId, 'nonce-2');
      const { code, state } = await login(authorizeUrl);
      await expect(complete(code, `${state.slice(0, -2)}xx`, 'nonce-2')).rejects.toMatchObject({
        code: 'INVALID_STATE',
      });
      await expect(complete(code, state, 'another-browser')).rejects.toMatchObject({ code: 'INVALID_STATE' });
      await expect(request(RoutingKey.CredentialsRequested, { connectorId })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });

      const db = new Client({ connectionString: database.url });
      await db.connect();
      const other = randomUUID();
      const late = await start(other, 'nonce-3');
      await db.query(
        `UPDATE oauth_state SET expires_at = now() - interval '1 second' WHERE connector_id = $1`,
        [other],
      );
      await db.end();
      const expired = await login(late.authorizeUrl);
      await expect(complete(expired.code, expired.state, 'nonce-3')).rejects.toMatchObject({
        code: 'INVALID_STATE',
      });
    });

    it('renews an expired session once for 50 concurrent requests across two gateway processes', async () => {
      const connectorId = randomUUID();
      const { authorizeUrl } = await start(connectorId, 'nonce-4');
      const { code, state } = await login(authorizeUrl);
      await complete(code, state, 'nonce-4');
      const old = (await request<AtsAccess>(RoutingKey.CredentialsRequested, { connectorId })) as Extract<
        AtsAccess,
        { type: 'ats-b' }
      >;
      const db = new Client({ connectionString: database.url });
      await db.connect();
      const secretBefore = (
        await db.query('SELECT secret FROM connector_credential WHERE connector_id = $1', [connectorId])
      ).rows[0].secret;

      atsB.state.expireSessions();
      atsB.state.resetCalls();
      // Every worker saw the same 401 and reports the same session; the two gateways share one renewal.
      const rejected = credentialFingerprint(old.bhRestToken);
      const answers = (await Promise.all(
        Array.from({ length: 50 }, () =>
          request<AtsAccess>(RoutingKey.CredentialsRequested, { connectorId, rejected }),
        ),
      )) as Array<Extract<AtsAccess, { type: 'ats-b' }>>;
      expect(new Set(answers.map((a) => a.bhRestToken)).size).toBe(1);
      expect(answers[0].bhRestToken).not.toBe(old.bhRestToken);
      expect(atsB.state.callCounts()).toEqual({
        'POST /oauth/token refresh_token': 1,
        'POST /rest-services/login': 1,
      });
      const ping = await fetch(`${answers[0].restUrl}ping`, {
        headers: { BhRestToken: answers[0].bhRestToken },
      });
      expect(ping.status).toBe(200);
      // The rotated refresh token was stored (sealed) before it was used.
      const secretAfter = (
        await db.query('SELECT secret FROM connector_credential WHERE connector_id = $1', [connectorId])
      ).rows[0].secret;
      expect(secretAfter).not.toEqual(secretBefore);
      await db.end();
    });

    it('marks the connector auth_failed when the refresh token is refused, and stops calling the ATS', async () => {
      const connectorId = randomUUID();
      const { authorizeUrl } = await start(connectorId, 'nonce-6');
      const { code, state } = await login(authorizeUrl);
      await complete(code, state, 'nonce-6');
      const old = (await request<AtsAccess>(RoutingKey.CredentialsRequested, { connectorId })) as Extract<
        AtsAccess,
        { type: 'ats-b' }
      >;
      atsB.state.expireSessions();
      atsB.state.revokeRefreshTokens();
      await expect(
        request(RoutingKey.CredentialsRequested, {
          connectorId,
          rejected: credentialFingerprint(old.bhRestToken),
        }),
      ).rejects.toMatchObject({ code: 'AUTHORIZATION_REQUIRED' });
      const event = await eventually(
        () =>
          statusEvents
            .map(
              (m) =>
                JSON.parse(m.content.toString()) as EventEnvelope<
                  string,
                  { connectorId: string; status: string }
                >,
            )
            .find((e) => e.data.connectorId === connectorId),
        5_000,
        'connector.status_changed',
      );
      expect(event).toMatchObject({ accountId: ACCOUNT, data: { status: 'auth_failed' } });
      atsB.state.resetCalls();
      await expect(request(RoutingKey.CredentialsRequested, { connectorId })).rejects.toMatchObject({
        code: 'AUTHORIZATION_REQUIRED',
      });
      expect(atsB.state.totalCalls()).toBe(0);
    });
  });

  it('erases a connector’s credentials', async () => {
    const connectorId = randomUUID();
    await request(RoutingKey.AuthCredentialsSave, { connectorId, type: 'ats-a', config: atsAConfig() });
    await request(RoutingKey.AuthCredentialsErase, { connectorId });
    await expect(request(RoutingKey.CredentialsRequested, { connectorId })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('erases the credentials of a connector the registry reports deleted, even without the erase request', async () => {
    const connectorId = randomUUID();
    await request(RoutingKey.AuthCredentialsSave, { connectorId, type: 'ats-a', config: atsAConfig() });
    broker.publish(
      Exchange.ConnectorEvents,
      RoutingKey.ConnectorStatusChanged,
      createEvent(RoutingKey.ConnectorStatusChanged, ACCOUNT, {
        connectorId,
        status: 'disabled',
        reason: 'deleted',
      }),
    );
    await eventually(
      () =>
        request(RoutingKey.CredentialsRequested, { connectorId }).then(
          () => false,
          (error: { code?: string }) => error.code === 'NOT_FOUND',
        ),
      10_000,
      'credentials erased',
    );
  });

  it('never writes a secret or token to its logs', () => {
    const logs = gateways.flatMap((g) => g.output).join('\n');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(CLIENT_SECRET);
    expect(logs).not.toMatch(/"(access_token|refresh_token|BhRestToken)":"[^[]/);
  });
});
