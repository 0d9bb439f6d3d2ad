import { randomUUID } from 'node:crypto';
import { createEvent, Exchange, RoutingKey } from '@connector/contracts';
import { RabbitConnection, RpcClient } from '@connector/messaging';
import { eventually, freePort, spawnService } from '@connector/testing';
import { type TestWorld, testWorld } from '@connector/test-world';

const SERVICES = [
  'connector-registry',
  'auth-gateway',
  'vacancy-sync',
  'candidate-sync',
  'document-service',
] as const;
/** The services that take events; auth-gateway only answers requests (checked separately below). */
const CONSUMERS = ['connector-registry', 'vacancy-sync', 'candidate-sync', 'document-service'] as const;

/** One message each service must take, published the way its producer would. */
const probes = {
  'candidate-sync': () =>
    createEvent(RoutingKey.CandidateCreated, 'acct_e2e', {
      candidateId: randomUUID(),
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
    }),
  'document-service': () =>
    createEvent(RoutingKey.DocumentUploaded, 'acct_e2e', {
      documentId: randomUUID(),
      candidateId: 'c1',
      kind: 'cv',
      fileName: 'cv.pdf',
      contentType: 'application/pdf',
      sizeBytes: 3,
      sha256: 'b'.repeat(64),
      url: 'http://127.0.0.1:9/cv.pdf',
    }),
  'vacancy-sync': () =>
    createEvent(RoutingKey.RunRequested, 'acct_e2e', { connectorId: 'c1', runId: randomUUID() }),
  'connector-registry': () =>
    createEvent(RoutingKey.ConnectorStatusChanged, 'acct_e2e', { connectorId: 'c1', status: 'auth_failed' }),
};
const exchangeOf = {
  'candidate-sync': Exchange.PlatformEvents,
  'document-service': Exchange.PlatformEvents,
  'vacancy-sync': Exchange.Internal,
  'connector-registry': Exchange.ConnectorEvents,
};

describe('the five services', () => {
  let world: TestWorld;

  beforeAll(async () => {
    // Started together, as `npm start` does: their migrations must not race.
    world = await testWorld({
      name: 'e2e_foundation',
      services: SERVICES,
      registry: 'real',
      env: { LOG_LEVEL: 'debug' },
      serviceEnv: { 'connector-registry': { ADMIN_API_KEYS: 'acct_e2e:e2e-key' } },
    });
  }, 120_000);

  afterAll(() => world?.close());

  it('all report ready on /health, checking RabbitMQ and Postgres', async () => {
    expect(world.processes.map((p) => p.name).sort()).toEqual([...SERVICES].sort());
    for (const service of world.processes) {
      const response = await fetch(`${service.url}/health`);
      expect(await response.json()).toMatchObject({
        status: 'ok',
        details: { postgres: { status: 'up' }, rabbitmq: { status: 'up' } },
      });
    }
  });

  it('each consumes its own queue: a message published there is handled or dead-lettered by it', async () => {
    const sent = CONSUMERS.map((name) => ({ name, event: probes[name]() }));
    for (const { name, event } of sent) world.broker.publish(exchangeOf[name], event.type, event);
    for (const { name, event } of sent) {
      // The transport logs every message it settles: handled (acknowledged) or dead-lettered with reasons.
      await eventually(
        () =>
          world
            .service(name)
            .output.some(
              (line) =>
                line.includes(`handled ${event.type} ${event.id}`) ||
                line.includes(`dead-lettering ${event.type} ${event.id}`),
            ),
        15_000,
        `${name} to take ${event.type}`,
      );
    }
  });

  it('auth-gateway answers requests over RabbitMQ', async () => {
    const connection = new RabbitConnection({ url: world.env.RABBITMQ_URL, name: 'e2e-foundation' });
    const rpc = new RpcClient(connection, 'connector-registry');
    try {
      const request = createEvent(RoutingKey.CredentialsRequested, 'acct_e2e', {
        connectorId: 'no-such-connector',
      });
      await expect(rpc.request(request, 10_000)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await rpc.close();
      await connection.close();
    }
  });

  it('stops gracefully on SIGTERM', async () => {
    expect(await world.service('document-service').stop('SIGTERM')).toBe(0);
  });

  // A process that must not start: spawned by itself, outside the world, which waits for a ready one.
  it('refuses to start with a bad variable, naming it', async () => {
    const service = spawnService(
      'candidate-sync',
      { ...world.env, LOG_LEVEL: 'debug', RABBITMQ_URL: 'http://nope', PREFETCH: '0' },
      await freePort(),
    );
    expect(await service.exited).toBe(1);
    const output = service.output.join('\n');
    expect(output).toMatch(/RABBITMQ_URL must be an amqp:\/\/ or amqps:\/\/ URL/);
    expect(output).toMatch(/PREFETCH must not be less than 1/);
  });
});
