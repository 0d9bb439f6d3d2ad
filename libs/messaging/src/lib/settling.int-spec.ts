import { randomUUID } from 'node:crypto';
import { createEvent, Exchange, Header, RoutingKey } from '@connector/contracts';
import { createTestVhost, eventually, TestBroker, type TestVhost } from '@connector/testing';
import { MessagePublisher } from './message-publisher';
import { BrokerUsers, publisherCheck } from './publisher-check';
import { RabbitConnection } from './rabbitmq.connection';
import { RabbitMqServer } from './rabbitmq.server';
import { deadLetterQueueName } from './topology';

/**
 * Messages a foreign publisher shapes to break the transport, on a real broker (a vhost of this suite's
 * own): each is settled once, and the queue keeps moving.
 */
describe('every message is settled once', () => {
  let vhost: TestVhost;
  let broker: TestBroker;
  let connection: RabbitConnection;
  let publisher: MessagePublisher;
  const servers: RabbitMqServer[] = [];

  beforeAll(async () => {
    vhost = await createTestVhost('settling');
    broker = await TestBroker.connect(vhost.url);
    connection = new RabbitConnection({ url: vhost.url, name: 'settling' });
    await connection.waitForConnect(10_000);
    publisher = new MessagePublisher(connection);
  });

  afterAll(async () => {
    for (const server of servers) await server.close();
    await publisher?.close();
    await connection?.close();
    await broker?.close();
    await vhost?.drop();
  });

  async function consume(queue: string, options: Partial<ConstructorParameters<typeof RabbitMqServer>[2]>) {
    const server = new RabbitMqServer(connection, publisher, {
      queue,
      bindings: [],
      retryDelaysMs: [500],
      ...options,
    });
    servers.push(server);
    await new Promise<void>((resolve, reject) => server.listen((e) => (e ? reject(e) : resolve())));
    return server;
  }

  const send = (queue: string, body: object, headers: Record<string, unknown>) =>
    broker.channel.sendToQueue(queue, Buffer.from(JSON.stringify(body)), {
      userId: 'guest',
      contentType: 'application/json',
      headers,
    });

  const candidate = (accountId = 'acct_1') =>
    createEvent(RoutingKey.CandidateCreated, accountId, {
      candidateId: `c-${randomUUID()}`,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
    });

  it('dead-letters messages whose routing key Object.prototype has, and goes on with the next', async () => {
    const queue = `settling-keys-${randomUUID().slice(0, 8)}`;
    const handled: string[] = [];
    const server = await consume(queue, {
      prefetch: 2,
      verifyPublisher: publisherCheck('candidate-sync', BrokerUsers.parse('', 'guest')),
    });
    server.addHandler(
      RoutingKey.CandidateCreated,
      async (event: { id: string }) => void handled.push(event.id),
      true,
    );
    for (const key of ['constructor', 'toString', '__proto__']) {
      send(queue, candidate(), { [Header.OriginalRoutingKey]: key });
    }
    const next = candidate();
    send(queue, next, { [Header.OriginalRoutingKey]: RoutingKey.CandidateCreated });

    await eventually(() => handled.includes(next.id), 15_000, 'the next message handled');
    await eventually(
      async () => (await broker.messageCount(deadLetterQueueName(queue))) === 3,
      10_000,
      'three dead letters',
    );
    expect(await broker.messageCount(queue)).toBe(0);
  });

  it('dead-letters once, and reports, a message whose ids the report could not copy', async () => {
    const queue = `settling-ids-${randomUUID().slice(0, 8)}`;
    const reports = await broker.tap(Exchange.ConnectorEvents, RoutingKey.OperationFailed);
    await consume(queue, { deliveryLimit: 4 });
    const poison = { ...candidate('a'.repeat(101)), correlationId: 'c'.repeat(201) };
    send(queue, poison, { [Header.OriginalRoutingKey]: RoutingKey.CandidateCreated });

    // Only this message's reports: the test before dead-letters three of its own, reported on the same exchange.
    type Report = { accountId: string; data: { sourceEventId: string } };
    const mine = () =>
      reports
        .map((m) => JSON.parse(m.content.toString()) as Report)
        .filter((r) => r.data.sourceEventId === poison.id);
    await eventually(() => mine().length > 0, 10_000, 'operation.failed of the poison message');
    // Long enough for the redeliveries the bug made (one a second, each another dead-letter copy).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const dead = await broker.getAll(deadLetterQueueName(queue));
    expect(dead).toHaveLength(1);
    expect(dead[0].properties.headers?.[Header.DeadLetterReasons]).toBeDefined();
    expect(await broker.messageCount(queue)).toBe(0);
    expect(mine()).toHaveLength(1);
    expect(mine()[0]).toMatchObject({ accountId: 'unknown', data: { sourceEventId: poison.id } });
  });
});
