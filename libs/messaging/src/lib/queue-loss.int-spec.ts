import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Controller, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { createEvent, type EventEnvelope, Exchange, Queue, RoutingKey } from '@connector/contracts';
import { eventually, rabbitmqctl, TestBroker, useTestVhost } from '@connector/testing';
import { SERVICE_CONSUMES } from './broker-permissions';
import { keepBrokerTopology } from './broker-setup';
import { setUpVhostBrokerUsers, type VhostBrokerUsers } from '../test/vhost-broker-users';
import { connectRabbitMqConsumer } from './connect-consumer';
import { MessagingModule } from './messaging.module';
import { RabbitConnection } from './rabbitmq.connection';
import { RpcClient } from './rpc';
import { deadLetterQueueName, retryQueueName } from './topology';

// Issue 34: a queue deleted under a live consumer (an operator, or a test on the wrong vhost) must not
// leave the service up, green and deaf.
useTestVhost('queue_loss');

const queue = `test-queue-loss-${randomUUID().slice(0, 8)}`;
const delays = [1_000];
const handled: string[] = [];
/** The handler of a `slow-*` candidate waits for this, so it is in flight when its queue vanishes. */
let releaseSlow: () => void = () => undefined;
const slowReleased = new Promise<void>((resolve) => (releaseSlow = resolve));

@Controller()
class Handler {
  @EventPattern(RoutingKey.CandidateCreated)
  async handle(@Payload() event: EventEnvelope<string, { candidateId: string }>) {
    if (event.data.candidateId.startsWith('slow-')) {
      handled.push(`started:${event.data.candidateId}`);
      await slowReleased;
    }
    handled.push(event.data.candidateId);
  }

  @MessagePattern(RoutingKey.CredentialsRequested)
  answer(@Payload() request: EventEnvelope<string, { connectorId: string }>) {
    return { accessToken: `token-for-${request.data.connectorId}` };
  }
}

@Module({
  imports: [
    MessagingModule.forRootAsync({
      useFactory: () => ({
        url: process.env.RABBITMQ_URL ?? '',
        serviceName: 'document-service', // its reply queue is one of our services'
        consumer: {
          queue,
          bindings: [
            { exchange: Exchange.PlatformEvents, routingKeys: [RoutingKey.CandidateCreated] },
            { exchange: Exchange.Internal, routingKeys: [RoutingKey.CredentialsRequested] },
          ],
          retryDelaysMs: delays,
        },
      }),
    }),
  ],
  controllers: [Handler],
})
class QueueLossModule {}

const candidate = (candidateId: string) =>
  createEvent(RoutingKey.CandidateCreated, 'acct_1', {
    candidateId,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
  });

describe('a consumer whose queue is deleted', () => {
  let app: INestApplication;
  let broker: TestBroker;
  let connection: RabbitConnection;
  /** Every consumer this process reported missing: readiness may be back before a poll would see it gone. */
  const wentMissing: string[] = [];

  beforeAll(async () => {
    app = await NestFactory.create(QueueLossModule, { logger: ['error'] });
    connectRabbitMqConsumer(app);
    await app.startAllMicroservices();
    await app.init();
    connection = app.get(RabbitConnection);
    const consumerDown = connection.consumerDown.bind(connection);
    jest.spyOn(connection, 'consumerDown').mockImplementation((name, reason) => {
      wentMissing.push(`${name}: ${reason}`);
      consumerDown(name, reason);
    });
    broker = await TestBroker.connect(process.env.RABBITMQ_URL);
  });

  afterAll(async () => {
    releaseSlow();
    await app?.close();
    await broker?.deleteQueuesIfPresent([queue, deadLetterQueueName(queue), retryQueueName(queue, 1_000)]);
    await broker?.close();
  });

  it('declares its queue again and serves within 30 s; what was in flight settles into nothing', async () => {
    expect(connection.missingConsumers()).toEqual([]);
    broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, candidate('before'));
    await eventually(() => handled.includes('before'), 5_000, 'a message handled before the deletion');
    broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, candidate('slow-1'));
    await eventually(() => handled.includes('started:slow-1'), 5_000, 'the slow handler running');

    // As the broker's administrator: the queue and one of its retry queues, from another connection.
    await broker.channel.deleteQueue(queue);
    await broker.channel.deleteQueue(retryQueueName(queue, 1_000));

    await eventually(
      () => wentMissing.some((line) => line.startsWith(`${queue}: the broker cancelled it`)),
      10_000,
      'readiness to report the consumer missing after the broker cancelled it',
    );
    await eventually(
      () => connection.missingConsumers().length === 0,
      30_000,
      `the consumer back within 30 s (missing: ${connection.missingConsumers().join('; ')})`,
    );
    expect(await broker.queueExists(queue)).toBe(true);
    expect(await broker.queueExists(retryQueueName(queue, 1_000))).toBe(true);

    // Bound again: a message published now reaches the handler through the platform exchange.
    broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, candidate('after'));
    await eventually(() => handled.includes('after'), 30_000, 'a message published after recovery handled');

    // The in-flight delivery's ack goes to a closed channel (its queue, and the copy it held, are gone):
    // the handler finishes, nothing crashes, and it is not delivered again.
    releaseSlow();
    await eventually(() => handled.includes('slow-1'), 5_000, 'the slow handler finished');
    broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, candidate('last'));
    await eventually(() => handled.includes('last'), 5_000, 'the consumer still serving after the ack');
    expect(handled.filter((id) => id === 'started:slow-1')).toHaveLength(1);
    expect(await broker.messageCount(queue)).toBe(0);
  });

  it('declares its reply queue again when it is deleted, and gets answers again', async () => {
    const client = app.get(RpcClient);
    const ask = (connectorId: string) =>
      client.request(createEvent(RoutingKey.CredentialsRequested, 'acct_1', { connectorId }), 5_000);
    await expect(ask('c1')).resolves.toEqual({ accessToken: 'token-for-c1' });
    // Its address ends in a random id: the first declaration told readiness which.
    const declared = wentMissing.find((line) => line.endsWith(': declaring it')) ?? '';
    const replyQueue = declared.slice(0, declared.indexOf(':'));
    expect(replyQueue).toMatch(/^document-service\.reply\./);
    wentMissing.length = 0;
    const vhost = decodeURIComponent(new URL(process.env.RABBITMQ_URL ?? '').pathname.slice(1));

    // The queue is server-named (the only one here); an exclusive queue only its connection may delete, and
    // the broker's administrator.
    const serverNamed = execFileSync('rabbitmqctl', ['list_queues', '-q', '-p', vhost, 'name'], {
      encoding: 'utf8',
    })
      .split('\n')
      .map((line) => line.trim())
      .filter((name) => name.startsWith('amq.gen-'));
    expect(serverNamed).toHaveLength(1);
    await rabbitmqctl(['delete_queue', '-p', vhost, serverNamed[0]]);

    await eventually(
      () => wentMissing.some((line) => line.startsWith(`${replyQueue}: declaring it`)),
      10_000,
      'the reply consumer re-declaring its queue after the broker cancelled it',
    );
    await eventually(
      () => connection.missingConsumers().length === 0,
      30_000,
      `the reply consumer back within 30 s (missing: ${connection.missingConsumers().join('; ')})`,
    );
    await expect(ask('c2')).resolves.toEqual({ accessToken: 'token-for-c2' });
  });
});

@Controller()
class ErasureHandler {
  @EventPattern(RoutingKey.CandidateErased)
  handle(@Payload() event: EventEnvelope<string, { candidateId: string }>) {
    erased.push(event.data.candidateId);
  }
}
const erased: string[] = [];

describe('a consumer with a broker user of its own, whose queue is deleted', () => {
  const settings = { 'document-service': { retryDelaysMs: [1_000] } };
  let users: VhostBrokerUsers;
  let keeper: { stop(): Promise<void> } | undefined;
  let app: INestApplication;
  let broker: TestBroker;

  beforeAll(async () => {
    const adminUrl = process.env.RABBITMQ_URL ?? '';
    users = await setUpVhostBrokerUsers(adminUrl, settings);
    @Module({
      imports: [
        MessagingModule.forRootAsync({
          useFactory: () => ({
            url: users.urlOf('document-service'),
            serviceName: 'document-service',
            declaredBySetUp: true,
            consumer: { ...SERVICE_CONSUMES['document-service'], retryDelaysMs: [1_000] },
          }),
        }),
      ],
      controllers: [ErasureHandler],
    })
    class OwnUserModule {}
    app = await NestFactory.create(OwnUserModule, { logger: ['error'] });
    connectRabbitMqConsumer(app);
    await app.startAllMicroservices();
    await app.init();
    broker = await TestBroker.connect(adminUrl);
    keeper = keepBrokerTopology({ adminUrl, topology: settings, intervalMs: 2_000 });
  });

  afterAll(async () => {
    await keeper?.stop();
    await app?.close();
    await broker?.close();
    await users?.remove();
  });

  it('may not declare it, and serves again within 30 s once the broker keeper has', async () => {
    const connection = app.get(RabbitConnection);
    const erasure = (candidateId: string) =>
      createEvent(RoutingKey.CandidateErased, 'acct_1', { candidateId });
    broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateErased, erasure('before'));
    await eventually(() => erased.includes('before'), 5_000, 'a message handled before the deletion');

    await broker.channel.deleteQueue(Queue.DocumentService);
    await eventually(
      () => connection.missingConsumers().length > 0,
      10_000,
      'readiness to report the consumer missing',
    );
    await eventually(
      () => connection.missingConsumers().length === 0,
      30_000,
      `the consumer back within 30 s (missing: ${connection.missingConsumers().join('; ')})`,
    );
    broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateErased, erasure('after'));
    await eventually(() => erased.includes('after'), 10_000, 'a message published after recovery handled');
  });
});

describe(`${RabbitConnection.name}, a consumer that does not come back`, () => {
  it('gives up after consumerRecoveryMs connected, so the process can exit for its supervisor', async () => {
    const connection = new RabbitConnection({
      url: process.env.RABBITMQ_URL ?? '',
      name: 'queue-loss-give-up',
      consumerRecoveryMs: 1_500,
    });
    try {
      await connection.waitForConnect(5_000);
      const fatal = new Promise<Error>((resolve) => connection.onFatal(resolve));
      connection.consumerDown('never-back', 'its exchanges are gone');
      expect(connection.missingConsumers()).toEqual(['never-back: its exchanges are gone']);
      await expect(fatal).resolves.toMatchObject({
        message: expect.stringContaining('consumer never-back missing for 2 s: its exchanges are gone'),
      });
    } finally {
      await connection.close();
    }
  });
});
