import { createEvent, Exchange, RoutingKey } from '@connector/contracts';
import { adminApi, eventually } from '@connector/testing';
import { type TestWorld, testWorld } from '@connector/test-world';

/**
 * The per-account limits of connector-registry (issue 33), over HTTP against the real process, Postgres and
 * RabbitMQ, with small limits: one account cannot take more connectors or run slots than it is given, and
 * another account is not affected. vacancy-sync does not run: a run ends when its `run.completed` arrives.
 */

const KEY_A = 'key-limits-a';
const KEY_B = 'key-limits-b';

describe('connector-registry per-account limits', () => {
  let world: TestWorld;
  const api = adminApi({ baseUrl: () => world.service('connector-registry').url, key: KEY_A });

  const createAtsB = (name: string, key = KEY_A) =>
    api('POST', '/api/v1/connectors', {
      key,
      body: { type: 'ats-b', name, config: { routine: 'api-oauth', sendSmartCv: false } },
    });

  /** What auth-gateway publishes after a successful ATS-B login, and what marks a connector connected. */
  const markConnected = async (id: string) => {
    world.broker.publish(
      Exchange.ConnectorEvents,
      RoutingKey.ConnectorStatusChanged,
      createEvent(RoutingKey.ConnectorStatusChanged, 'acct_a', { connectorId: id, status: 'connected' }),
    );
    await eventually(
      async () => (await api('GET', `/api/v1/connectors/${id}`)).body.status === 'connected',
      10_000,
      `connector ${id} connected`,
    );
  };

  beforeAll(async () => {
    world = await testWorld({
      name: 'e2e_registry_limits',
      services: ['connector-registry'],
      registry: 'real',
      serviceEnv: {
        'connector-registry': {
          ADMIN_API_KEYS: `acct_a:${KEY_A},acct_b:${KEY_B}`,
          MAX_CONNECTORS_PER_ACCOUNT: '2',
          MAX_CONCURRENT_RUNS_PER_ACCOUNT: '1',
        },
      },
    });
  }, 120_000);

  afterAll(() => world?.close());

  it('refuses an account its connector beyond MAX_CONNECTORS_PER_ACCOUNT with 422, and concurrent runs with 429', async () => {
    const first = await createAtsB('first');
    const second = await createAtsB('second');
    expect([first.status, second.status]).toEqual([201, 201]);

    const third = await createAtsB('third');
    expect(third.status).toBe(422);
    expect(third.body).toEqual({
      statusCode: 422,
      code: 'CONNECTOR_LIMIT',
      message: expect.stringContaining('2 connectors'),
      details: { limit: 2 },
    });
    // Nothing saved, and another account is not affected.
    const listed = (await api('GET', '/api/v1/connectors')).body.connectors as Array<{ name: string }>;
    expect(listed.map((c) => c.name).sort()).toEqual(['first', 'second']);
    expect((await createAtsB('other account', KEY_B)).status).toBe(201);

    const [a, b] = [first.body.id as string, second.body.id as string];
    await markConnected(a);
    await markConnected(b);
    const started = await api('POST', `/api/v1/connectors/${a}/runs`, { body: {} });
    expect(started.status).toBe(202);

    const refused = await api('POST', `/api/v1/connectors/${b}/runs`, { body: {} });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      statusCode: 429,
      code: 'RUN_LIMIT',
      message: expect.stringContaining('1 runs going'),
      details: { limit: 1 },
    });
    expect(refused.headers.get('retry-after')).toBe('60');
    // The same connector asked again is still "in progress", not the account's limit.
    expect((await api('POST', `/api/v1/connectors/${a}/runs`, { body: {} })).body.code).toBe(
      'RUN_IN_PROGRESS',
    );

    // Once the run has ended the account has its slot back.
    const runId = started.body.runId as string;
    world.broker.publish(
      Exchange.ConnectorEvents,
      RoutingKey.RunCompleted,
      createEvent(RoutingKey.RunCompleted, 'acct_a', {
        connectorId: a,
        runId,
        status: 'succeeded',
        counts: { fetched: 0, upserted: 0, unchanged: 0, closed: 0 },
        apiCalls: 1,
      }),
    );
    await eventually(
      async () => (await api('GET', `/api/v1/connectors/${a}/runs/${runId}`)).body.status === 'succeeded',
      10_000,
      `run ${runId} of connector ${a} succeeded (run.completed handled)`,
    );
    expect((await api('POST', `/api/v1/connectors/${b}/runs`, { body: {} })).status).toBe(202);

    // A deleted connector frees its place.
    expect((await api('DELETE', `/api/v1/connectors/${a}`)).status).toBe(204);
    expect((await createAtsB('third')).status).toBe(201);
  });
});
