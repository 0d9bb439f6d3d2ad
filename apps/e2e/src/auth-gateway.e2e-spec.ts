import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { Client } from 'pg';
import type { RunningAtsASandbox } from '@connector/ats-a-sandbox';
import type { RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import { driveLoginForm } from '@connector/ats-b-sandbox/testing';
import type { AtsAAccess } from '@connector/ats-a';
import type { AtsBAccess } from '@connector/ats-b';
import {
  type AuthorizationStartReply,
  type ConnectionTestReply,
  createEvent,
  credentialFingerprint,
  type EventEnvelope,
  Exchange,
  RoutingKey,
} from '@connector/contracts';
import { RpcError } from '@connector/messaging';
import { registryRequest } from '@connector/service-stubs';
import { eventually, startHttpGate } from '@connector/testing';
import { type TestWorld, testWorld } from '@connector/test-world';

/** What auth-gateway hands a worker, per ATS. */
type AtsAccess = AtsAAccess | AtsBAccess;

const ACCOUNT = 'acct_gateway';
const CLIENT_ID = 'gateway-client';
const CLIENT_SECRET = `secret-${randomBytes(8).toString('hex')}`;

/**
 * auth-gateway's set-up and renewal flows, each ATS's own (its client credentials, its interactive login): two
 * gateway processes, as in production, with the two sandboxes of the test world, checked on the wire.
 */
describe('auth-gateway', () => {
  let world: TestWorld;
  let atsA: RunningAtsASandbox;
  let atsB: RunningAtsBSandbox;
  let silentServer: Server;
  let silentPort: number;

  const gateways = () => world.processes.filter((p) => p.name === 'auth-gateway');
  const request = <T>(type: string, data: Record<string, unknown>, timeoutMs = 20_000) =>
    world.rpc().request<T>(registryRequest(type, ACCOUNT, data), timeoutMs);
  const atsAConfig = (overrides: object = {}) => ({
    baseUrl: `${atsA.url}/api/`, // pasted with /api and a trailing slash, as users do
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    ...overrides,
  });
  const query = async <T extends object>(sql: string, params: unknown[] = []): Promise<T[]> => {
    const db = new Client({ connectionString: world.env.DATABASE_URL });
    await db.connect();
    try {
      return (await db.query<T>(sql, params)).rows;
    } finally {
      await db.end();
    }
  };

  /** As if the marked refresh had started longer ago than any refresh can run (REFRESH_IN_FLIGHT_MS). */
  const ageRefreshMarker = (connectorId: string) =>
    query(
      `UPDATE connector_credential SET refresh_started_at = now() - interval '10 minutes' WHERE connector_id = $1`,
      [connectorId],
    );
  const credentialRow = async (connectorId: string) =>
    (
      await query<{ state: string; secret: unknown; refresh_marker: string | null }>(
        'SELECT state, secret, refresh_marker FROM connector_credential WHERE connector_id = $1',
        [connectorId],
      )
    )[0];
  const alertsLogged = (code: string) =>
    gateways()
      .flatMap((g) => g.output)
      .filter((line) => line.includes(`"alert":"${code}"`)).length;
  const statusesOf = (connectorId: string) =>
    world
      .events(RoutingKey.ConnectorStatusChanged)
      .filter((e) => e.data.connectorId === connectorId)
      .map((e) => e.data.status);

  beforeAll(async () => {
    // A host that accepts connections and never answers: the connection test must give up by itself.
    silentServer = createServer(() => undefined);
    await new Promise<void>((resolve) => silentServer.listen(0, '127.0.0.1', resolve));
    silentPort = (silentServer.address() as { port: number }).port;

    // A vhost of its own: gateways other suites run on this broker must not answer this suite's requests.
    world = await testWorld({
      name: 'e2e_gateway',
      // Two gateway processes, as in production: renewals must be coordinated between them.
      services: ['auth-gateway', 'auth-gateway'],
      env: { LOG_LEVEL: 'debug', CREDENTIAL_RECHECK_SECONDS: '2' },
      sandboxes: ['ats-a', 'ats-b'],
      vendorSandboxOptions: {
        'ats-a': { clients: [{ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }], seed: { vacancies: 5 } },
        // Access tokens shorter than the gateway's renewal margin: every renewal refreshes, then logs in.
        'ats-b': { accessTokenTtlSeconds: 30 },
      },
      tap: [Exchange.ConnectorEvents],
    });
    atsA = world.sandbox('ats-a').running as RunningAtsASandbox;
    atsB = world.sandbox('ats-b').running as RunningAtsBSandbox;
  }, 120_000);

  afterAll(async () => {
    silentServer?.close();
    await world?.close();
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
      const db = new Client({ connectionString: world.env.DATABASE_URL });
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

    it('gives up on an unreachable or silent host within 5 s', async () => {
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
        error: { code: 'UNREACHABLE', message: expect.stringMatching(/5 s/) },
      });
      expect(Date.now() - started).toBeLessThan(6_500);
    }, 30_000);

    it("a tenant's 25 tests against a tarpit cost only that tenant: another account's renewal goes through", async () => {
      const tarpitAccount = `acct_tarpit_${randomBytes(4).toString('hex')}`;
      const otherAccount = `acct_push_${randomBytes(4).toString('hex')}`;
      const connectorId = randomUUID();
      await world.rpc().request(
        registryRequest(RoutingKey.AuthCredentialsSave, otherAccount, {
          connectorId,
          type: 'ats-a',
          config: atsAConfig(),
        }),
        20_000,
      );
      const current = await world
        .rpc()
        .request<Extract<AtsAccess, { type: 'ats-a' }>>(
          createEvent(RoutingKey.CredentialsRequested, otherAccount, { connectorId }),
          20_000,
        );

      const started = Date.now();
      const tests = Array.from({ length: 25 }, () =>
        world
          .rpc()
          .request<ConnectionTestReply>(
            registryRequest(RoutingKey.AuthConnectionTest, tarpitAccount, {
              type: 'ats-a',
              config: atsAConfig({ baseUrl: `http://127.0.0.1:${silentPort}` }),
            }),
            20_000,
          )
          // Refused by the transport's own slots for connection tests (BUSY, before the gateway's): an answer too.
          .catch((error: unknown) => {
            if (error instanceof RpcError && error.code === 'BUSY')
              return { ok: false as const, error: { code: error.code, message: error.message } };
            throw error;
          })
          .then((reply) => ({ reply, ms: Date.now() - started })),
      );
      // While the tarpit holds the tests it let in, a push's renewal (the ATS refused its token) is prompt.
      const pushStarted = Date.now();
      const renewed = await world.rpc().request<Extract<AtsAccess, { type: 'ats-a' }>>(
        createEvent(RoutingKey.CredentialsRequested, otherAccount, {
          connectorId,
          rejected: credentialFingerprint(current.accessToken),
        }),
        20_000,
      );
      const pushMs = Date.now() - pushStarted;
      expect(renewed.accessToken).not.toBe(current.accessToken);
      const answers = await Promise.all(tests);
      const codes = answers.map(({ reply }) => (reply.ok ? 'OK' : reply.error.code));
      const count = (code: string) => codes.filter((c) => c === code).length;
      expect({ pushMs: pushMs < 2_000 ? 'prompt' : pushMs }).toEqual({ pushMs: 'prompt' });
      // Two slots per account in each of the two gateways; the rest refused at once, never queued.
      expect(count('UNREACHABLE')).toBeLessThanOrEqual(4);
      expect(count('BUSY') + count('RATE_LIMITED') + count('UNREACHABLE')).toBe(25);
      expect(count('RATE_LIMITED')).toBeGreaterThan(0); // 10 a minute per account
      const refusals = answers.filter(({ reply }) => !reply.ok && reply.error.code !== 'UNREACHABLE');
      for (const { reply, ms } of refusals) {
        expect({ ms: ms < 2_000 ? 'at once' : ms, reply }).toMatchObject({
          ms: 'at once',
          reply: { ok: false, error: { message: expect.stringMatching(/again|retry after/) } },
        });
      }
      for (const { ms } of answers) expect(ms).toBeLessThan(6_500);
    }, 30_000);

    it('stores the credentials sealed, and hands out a token that renews once when the ATS revokes it', async () => {
      const connectorId = randomUUID();
      const saved = await request<{ baseUrl: string }>(RoutingKey.AuthCredentialsSave, {
        connectorId,
        type: 'ats-a',
        config: atsAConfig(),
      });
      expect(saved).toEqual({ baseUrl: atsA.url, openStatuses: ['Open', 'Live'] });

      const db = new Client({ connectionString: world.env.DATABASE_URL });
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

    it("answers another account's credentials, erase and save requests as if the connector did not exist", async () => {
      const connectorId = randomUUID();
      await request(RoutingKey.AuthCredentialsSave, { connectorId, type: 'ats-a', config: atsAConfig() });
      const forged = <T>(type: string, data: Record<string, unknown>) =>
        world.rpc().request<T>(registryRequest(type, 'acct_forger', data), 20_000);
      await expect(forged(RoutingKey.CredentialsRequested, { connectorId })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      await expect(
        forged(RoutingKey.AuthCredentialsSave, { connectorId, type: 'ats-a', config: atsAConfig() }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await forged(RoutingKey.AuthCredentialsErase, { connectorId });
      // The owner's credentials are untouched by all of it.
      await expect(request(RoutingKey.CredentialsRequested, { connectorId })).resolves.toMatchObject({
        type: 'ats-a',
        baseUrl: atsA.url,
      });
    });

    it('refuses a client secret in clear, or sealed for another request, before calling the ATS: nothing stored', async () => {
      const connectorId = randomUUID();
      const save = { connectorId, type: 'ats-a', config: atsAConfig() };
      const tokensBefore = atsA.state.callCounts().byEndpoint['POST /api/token'] ?? 0;
      const refusal = (request: EventEnvelope) =>
        world
          .rpc()
          .request(request, 20_000)
          .then(
            () => 'answered',
            (error: unknown) =>
              error instanceof RpcError ? `${error.code}: ${error.message}` : String(error),
          );

      // As a broker user publishing the old shape would: the secret in clear.
      const clear = await refusal(createEvent(RoutingKey.AuthCredentialsSave, ACCOUNT, save));
      expect(clear).toMatch(
        /^INVALID_REQUEST: .*clientSecret must be sealed \(REQUEST_SEAL_KEYS\), never sent in clear/,
      );
      expect(clear).not.toContain(CLIENT_SECRET);
      const clearTest = await refusal(
        createEvent(RoutingKey.AuthConnectionTest, ACCOUNT, { type: 'ats-a', config: atsAConfig() }),
      );
      expect(clearTest).toMatch(/^INVALID_REQUEST: .*must be sealed/);

      // A sealed secret lifted into another request: another connector, another account, another request id.
      const forOtherConnector = registryRequest(RoutingKey.AuthCredentialsSave, ACCOUNT, {
        ...save,
        connectorId: randomUUID(),
      });
      const forOtherAccount = registryRequest(RoutingKey.AuthCredentialsSave, 'acct_other', save);
      const test = registryRequest(RoutingKey.AuthConnectionTest, ACCOUNT, {
        type: 'ats-a',
        config: atsAConfig(),
      });
      for (const lifted of [
        { ...forOtherConnector, data: { ...(forOtherConnector.data as object), connectorId } },
        { ...forOtherAccount, accountId: ACCOUNT },
        { ...test, id: randomUUID() },
        // A connection test's secret (sealed for no connector) saved onto one.
        { ...test, type: RoutingKey.AuthCredentialsSave, data: { ...(test.data as object), connectorId } },
      ]) {
        expect(await refusal(lifted)).toMatch(
          /^INVALID_SEAL: the client secret was not sealed for this request/,
        );
      }
      expect(await credentialRow(connectorId)).toBeUndefined();
      expect(atsA.state.callCounts().byEndpoint['POST /api/token'] ?? 0).toBe(tokensBefore);
    });

    it('never erases a secret ATS-A refuses (a maintenance page): auth_failed, then connected again by itself', async () => {
      // A proxy in front of ATS-A that answers 401 while "under maintenance".
      let maintenance = false;
      const proxy = await startHttpGate(atsA.url, (_req, res) => {
        if (!maintenance) return false;
        res.writeHead(401, { 'content-type': 'text/html' }).end('<h1>Down for maintenance</h1>');
        return true;
      });
      const proxyUrl = proxy.url;
      try {
        const connectorId = randomUUID();
        await request(RoutingKey.AuthCredentialsSave, {
          connectorId,
          type: 'ats-a',
          config: atsAConfig({ baseUrl: proxyUrl }),
        });
        const first = (await request<AtsAccess>(RoutingKey.CredentialsRequested, { connectorId })) as {
          accessToken: string;
        };
        const before = await credentialRow(connectorId);

        maintenance = true;
        await expect(
          request(RoutingKey.CredentialsRequested, {
            connectorId,
            rejected: credentialFingerprint(first.accessToken),
          }),
        ).rejects.toMatchObject({ code: 'AUTHORIZATION_REQUIRED' });
        const refused = await credentialRow(connectorId);
        expect(refused.state).toBe('rejected');
        expect(refused.secret).toEqual(before.secret);
        await eventually(() => statusesOf(connectorId).includes('auth_failed'), 5_000, 'auth_failed');

        maintenance = false;
        await eventually(() => statusesOf(connectorId).includes('connected'), 15_000, 'connected again');
        expect((await credentialRow(connectorId)).state).toBe('active');
        await expect(request(RoutingKey.CredentialsRequested, { connectorId })).resolves.toMatchObject({
          type: 'ats-a',
        });
      } finally {
        await proxy.close();
      }
    }, 40_000);
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
      // PKCE: the challenge goes out; the verifier stays with the gateway, sealed, and goes with the code.
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);

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

      const db = new Client({ connectionString: world.env.DATABASE_URL });
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
      // The next login purges expired states.
      await start(randomUUID(), 'nonce-purge');
      const left = new Client({ connectionString: world.env.DATABASE_URL });
      await left.connect();
      const rows = await left.query(`SELECT count(*)::int AS n FROM oauth_state WHERE expires_at <= now()`);
      await left.end();
      expect(rows.rows[0].n).toBe(0);
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
      const db = new Client({ connectionString: world.env.DATABASE_URL });
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

    const authorized = async (nonce: string) => {
      const connectorId = randomUUID();
      const { authorizeUrl } = await start(connectorId, nonce);
      const { code, state } = await login(authorizeUrl);
      await complete(code, state, nonce);
      const access = (await request<AtsAccess>(RoutingKey.CredentialsRequested, { connectorId })) as Extract<
        AtsAccess,
        { type: 'ats-b' }
      >;
      return { connectorId, rejected: credentialFingerprint(access.bhRestToken) };
    };

    it('keeps every refresh token and alerts the operator when ATS-B refuses the platform’s client (invalid_client)', async () => {
      const first = await authorized('nonce-ic-1');
      const second = await authorized('nonce-ic-2');
      const before = await Promise.all([credentialRow(first.connectorId), credentialRow(second.connectorId)]);
      const alertsBefore = alertsLogged('OAUTH_CLIENT_REJECTED');
      atsB.state.expireSessions();
      // A bad rotation of the platform's secret: ATS-B now refuses the one the gateways hold.
      const rotated = await fetch(`${atsB.url}/__sandbox/client-secret`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientSecret: 'rotated-at-the-vendor' }),
      });
      expect(rotated.status).toBe(200);
      try {
        for (const { connectorId, rejected } of [first, second]) {
          await expect(
            request(RoutingKey.CredentialsRequested, { connectorId, rejected }),
          ).rejects.toMatchObject({ code: 'ATS_ERROR' });
        }
        const after = await Promise.all([
          credentialRow(first.connectorId),
          credentialRow(second.connectorId),
        ]);
        expect(after.map((r) => [r.state, r.secret, r.refresh_marker])).toEqual(
          before.map((r) => ['active', r.secret, null]),
        );
        await eventually(() => alertsLogged('OAUTH_CLIENT_REJECTED') >= alertsBefore + 2, 5_000, 'alerts');
        expect(statusesOf(first.connectorId)).toEqual([]);
      } finally {
        atsB.state.auth.rotateClientSecret('platform-secret');
      }
      // Once the operator fixes the secret, the kept refresh tokens still work.
      await expect(
        request(RoutingKey.CredentialsRequested, {
          connectorId: first.connectorId,
          rejected: first.rejected,
        }),
      ).resolves.toMatchObject({ type: 'ats-b' });
    });

    it('keeps the refresh token just saved when the REST login right after the refresh answers 401', async () => {
      const { connectorId, rejected } = await authorized('nonce-login-401');
      const before = await credentialRow(connectorId);
      atsB.state.expireSessions();
      atsB.state.resetCalls();
      atsB.state.setFaults({ errorRate: { 'POST /rest-services/login': 1 }, errorStatus: 401 });
      try {
        await expect(
          request(RoutingKey.CredentialsRequested, { connectorId, rejected }),
        ).rejects.toMatchObject({
          code: 'ATS_ERROR',
        });
      } finally {
        atsB.state.clearFaults();
      }
      const after = await credentialRow(connectorId);
      expect(after.state).toBe('active');
      expect(after.secret).not.toEqual(before.secret); // the rotated token, stored
      expect(statusesOf(connectorId)).toEqual([]);
      // The stored token is the live one: the next renewal spends it and works. (Access tokens here live
      // less than the gateway's margin, so it refreshes rather than reusing the access token, see the unit spec.)
      await expect(
        request(RoutingKey.CredentialsRequested, { connectorId, rejected }),
      ).resolves.toMatchObject({
        type: 'ats-b',
      });
      expect(atsB.state.callCounts()['POST /oauth/token refresh_token']).toBe(2);
    });

    it('after a refresh whose answer was lost, alerts on the invalid_grant that follows instead of wiping', async () => {
      const { connectorId, rejected } = await authorized('nonce-lost');
      const before = await credentialRow(connectorId);
      const alertsBefore = alertsLogged('REFRESH_LOST_IN_FLIGHT');
      atsB.state.expireSessions();
      // ATS-B rotates the token, then the connection drops before the answer arrives.
      atsB.state.setFaults({ timeoutAfterWrite: { 'POST /oauth/token refresh_token': 1 }, timeoutMs: 200 });
      try {
        await expect(
          request(RoutingKey.CredentialsRequested, { connectorId, rejected }),
        ).rejects.toMatchObject({
          code: expect.stringMatching(/ATS_ERROR|UNREACHABLE/),
        });
      } finally {
        atsB.state.clearFaults();
      }
      const marked = await credentialRow(connectorId);
      expect(marked.refresh_marker).toEqual(expect.any(String));
      expect(marked.secret).toEqual(before.secret);

      // While the marked refresh may still be running in another process, its token is not spent again.
      await expect(request(RoutingKey.CredentialsRequested, { connectorId, rejected })).rejects.toMatchObject(
        {
          code: 'ATS_ERROR',
          message: expect.stringMatching(/in progress/),
        },
      );
      // Once it cannot be running any more, its answer was lost.
      await ageRefreshMarker(connectorId);
      await expect(request(RoutingKey.CredentialsRequested, { connectorId, rejected })).rejects.toMatchObject(
        {
          code: 'AUTHORIZATION_REQUIRED',
        },
      );
      await eventually(() => alertsLogged('REFRESH_LOST_IN_FLIGHT') > alertsBefore, 5_000, 'alert');
      const after = await credentialRow(connectorId);
      expect(after).toMatchObject({ state: 'authorization_required', refresh_marker: null });
      expect(after.secret).toEqual(before.secret); // kept for the investigation, never used again
      await eventually(() => statusesOf(connectorId).includes('auth_failed'), 5_000, 'auth_failed');
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
        () => world.events(RoutingKey.ConnectorStatusChanged).find((e) => e.data.connectorId === connectorId),
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
    world.broker.publish(
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
    const logs = gateways()
      .flatMap((g) => g.output)
      .join('\n');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(CLIENT_SECRET);
    expect(logs).not.toMatch(/"(access_token|refresh_token|BhRestToken)":"[^[]/);
  });
});
