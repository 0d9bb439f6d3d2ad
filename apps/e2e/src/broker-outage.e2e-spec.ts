import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import {
  type AtsAccess,
  createEvent,
  credentialFingerprint,
  type EventEnvelope,
  RoutingKey,
} from '@connector/contracts';
import {
  adminApi,
  eventually,
  startHttpGate,
  startTcpProxy,
  type ServiceProcess,
  type TcpProxy,
} from '@connector/testing';
import { type TestWorld, testWorld } from '@connector/test-world';

/**
 * What must not be lost when one service cannot reach RabbitMQ at the wrong moment: the erasure of a deleted
 * connector's secrets, and a connector's auth_failed status. Each service under test reaches the broker
 * through its own TCP proxy, cut and restored per process; the shared broker keeps running for the others.
 * The proxies and the gate in front of ATS-A are this suite's own; the rest is the test world's.
 */
const ACCOUNT = 'acct_a';
const KEY = `key-${randomBytes(6).toString('hex')}`;
const CLIENT_SECRET = `ats-a-secret-${randomBytes(8).toString('hex')}`;

describe('a broker outage loses nothing that must reach another service', () => {
  let world: TestWorld;
  let atsAUrl: string;
  let registryBroker: TcpProxy;
  let gatewayBroker: TcpProxy;
  let registry: ServiceProcess;
  let gateway: ServiceProcess;
  let gate: AtsGate;

  const api = adminApi({ baseUrl: () => `${registry.url}/api/v1`, key: KEY });
  const request = <T>(type: string, data: object, timeoutMs = 20_000) =>
    world.rpc().request<T>(createEvent(type, ACCOUNT, data), timeoutMs);

  async function rows<T>(sql: string, params: unknown[]): Promise<T[]> {
    const db = new Client({ connectionString: world.env.DATABASE_URL });
    await db.connect();
    try {
      return (await db.query(sql, params)).rows as T[];
    } finally {
      await db.end();
    }
  }
  const credentialsOf = (connectorId: string) =>
    rows<{ state: string }>('SELECT state FROM connector_credential WHERE connector_id = $1', [connectorId]);
  const unsentOf = (publisher: string, connectorId: string) =>
    rows<{ envelope: EventEnvelope }>(
      'SELECT envelope FROM outbox_message WHERE publisher = $1 AND sent_at IS NULL',
      [publisher],
    ).then((found) =>
      found
        .map((row) => row.envelope)
        .filter((e) => (e.data as { connectorId?: string }).connectorId === connectorId),
    );
  const statusOf = async (connectorId: string) =>
    (await api('GET', `/connectors/${connectorId}`)).body['status'];
  /** Cuts one process off the broker and waits until it says so itself (`/health` no longer ready). */
  const outage = async (proxy: TcpProxy, service: ServiceProcess) => {
    proxy.cut();
    await eventually(
      async () => (await fetch(`${service.url}/health`)).status !== 200,
      10_000,
      `${service.name} notices the outage`,
    );
  };
  const createAtsA = async (name: string, baseUrl: string) => {
    const created = await api('POST', '/connectors', {
      body: { type: 'ats-a', name, config: { baseUrl, clientId: 'acme-id', clientSecret: CLIENT_SECRET } },
    });
    expect(created).toMatchObject({ status: 201, body: { status: 'connected' } });
    return String(created.body['id']);
  };

  beforeAll(async () => {
    world = await testWorld({
      name: 'e2e_outage',
      env: { LOG_LEVEL: 'debug' },
      serviceEnv: {
        'connector-registry': {
          ADMIN_API_KEYS: `${ACCOUNT}:${KEY}`,
          // The erase request fails fast while the registry is cut off.
          AUTH_GATEWAY_TIMEOUT_MS: '2000',
        },
        'auth-gateway': { CREDENTIAL_RECHECK_SECONDS: '3600' },
      },
      sandboxes: ['ats-a'],
      vendorSandboxOptions: {
        'ats-a': { clients: [{ clientId: 'acme-id', clientSecret: CLIENT_SECRET }], seed: { vacancies: 3 } },
      },
    });
    atsAUrl = world.sandbox('ats-a').url;
    gate = await startAtsGate(atsAUrl);
    const { vhost } = world.infra;
    const broker = new URL(vhost.url);
    const target = { host: broker.hostname, port: Number(broker.port || 5672) };
    [registryBroker, gatewayBroker] = await Promise.all([startTcpProxy(target), startTcpProxy(target)]);
    registry = await world.startService('connector-registry', {
      RABBITMQ_URL: registryBroker.through(vhost.url),
    });
    gateway = await world.startService('auth-gateway', { RABBITMQ_URL: gatewayBroker.through(vhost.url) });
  }, 120_000);

  // A failed test must not leave the next one without a broker.
  afterEach(async () => {
    registryBroker.restore();
    gatewayBroker.restore();
    for (const service of [registry, gateway]) {
      await eventually(async () => (await fetch(`${service.url}/health`)).ok, 30_000, `${service.name} back`);
    }
  });

  afterAll(async () => {
    await world?.close();
    await Promise.all([registryBroker?.close(), gatewayBroker?.close(), gate?.close()]);
  });

  it('erases the secrets of a connector deleted while the registry could not reach the broker', async () => {
    const connectorId = await createAtsA('Deleted in an outage', atsAUrl);
    expect(await credentialsOf(connectorId)).toHaveLength(1);

    await outage(registryBroker, registry);
    expect((await api('DELETE', `/connectors/${connectorId}`)).status).toBe(204);
    expect((await api('GET', `/connectors/${connectorId}`)).status).toBe(404);
    // Neither the erase request nor the event reached the gateway: the secret is still stored, and the
    // event that erases it waits in the registry's outbox, written with the deletion.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await credentialsOf(connectorId)).toHaveLength(1);
    expect(await unsentOf('connector-registry', connectorId)).toEqual([
      expect.objectContaining({
        type: RoutingKey.ConnectorStatusChanged,
        data: expect.objectContaining({ reason: 'deleted' }),
      }),
    ]);

    registryBroker.restore();
    await eventually(async () => (await credentialsOf(connectorId)).length === 0, 30_000, 'secret erased');
    expect(await unsentOf('connector-registry', connectorId)).toEqual([]);
  }, 90_000);

  it('shows auth_failed for a connector the ATS refused while the gateway could not reach the broker', async () => {
    const connectorId = await createAtsA('Refused in an outage', gate.url);
    const access = await request<AtsAccess & { accessToken: string }>(RoutingKey.CredentialsRequested, {
      connectorId,
    });

    // A worker reports the token refused; the gateway asks ATS-A for a new one, which the gate holds.
    const asked = gate.refuseNextToken();
    const renewal = request(
      RoutingKey.CredentialsRequested,
      { connectorId, rejected: credentialFingerprint(access.accessToken) },
      30_000,
    ).catch((error: unknown) => error);
    await asked.arrived;
    await outage(gatewayBroker, gateway);
    asked.answer(); // ATS-A: 401 invalid_client, while the gateway is cut off

    await eventually(
      async () => (await credentialsOf(connectorId))[0]?.state === 'rejected',
      10_000,
      'rejected',
    );
    expect(await unsentOf('auth-gateway', connectorId)).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ status: 'auth_failed' }) }),
    ]);
    expect(await statusOf(connectorId)).toBe('connected'); // the registry has not heard yet

    gatewayBroker.restore();
    await eventually(
      async () => (await statusOf(connectorId)) === 'auth_failed',
      30_000,
      'auth_failed shown',
    );
    expect(await unsentOf('auth-gateway', connectorId)).toEqual([]);
    await renewal;
  }, 90_000);
});

interface AtsGate {
  url: string;
  /** The next token request is held until `answer()`, then refused as ATS-A refuses a wrong secret. */
  refuseNextToken(): { arrived: Promise<void>; answer(): void };
  close(): Promise<void>;
}

/** ATS-A as a customer reaches it through their own gateway: passes everything on, unless told otherwise. */
async function startAtsGate(target: string): Promise<AtsGate> {
  let hold: { arrive: () => void; released: Promise<void> } | undefined;
  const gate = await startHttpGate(target, (req, res) => {
    const held = req.url?.endsWith('/api/token') ? hold : undefined;
    if (!held) return false;
    hold = undefined;
    held.arrive();
    void held.released.then(() =>
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'invalid_client', error_description: 'client authentication failed' })),
    );
    return true;
  });
  return {
    url: gate.url,
    refuseNextToken() {
      let arrive!: () => void;
      let answer!: () => void;
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      const released = new Promise<void>((resolve) => (answer = resolve));
      hold = { arrive, released };
      return { arrived, answer };
    },
    close: () => gate.close(),
  };
}
