import { randomUUID } from 'node:crypto';
import { Controller, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { createEvent, type EventEnvelope, Exchange, Header, RoutingKey } from '@connector/contracts';
import { eventually, rabbitUrl, TestBroker, useTestVhost } from '@connector/testing';
import { PermanentMessageError, TransientMessageError } from './message-errors';
import { MessagingModule } from './messaging.module';
import { RabbitMqContext } from './rabbitmq.context';
import { RabbitMqServer } from './rabbitmq.server';
import { connectRabbitMqConsumer } from './connect-consumer';
import { deadLetterQueueName, retryQueueName } from './topology';

// Its own vhost: never the default one, where `npm start` runs (the hermetic guard refuses it).
useTestVhost('rabbitmq_server');

/** What the test handler should do with each candidateId. */
const behaviour = new Map<string, 'ok' | 'transient' | 'permanent' | 'slow'>();
const handled: Array<{ candidateId: string; attempt: number }> = [];

@Controller()
class TestHandler {
  @EventPattern(RoutingKey.CandidateCreated)
  async handle(
    @Payload() event: EventEnvelope<string, { candidateId: string }>,
    @Ctx() ctx: RabbitMqContext,
  ) {
    const { candidateId } = event.data;
    handled.push({ candidateId, attempt: ctx.getAttempt() });
    switch (behaviour.get(candidateId) ?? 'ok') {
      case 'transient':
        throw new TransientMessageError('ATS answered 503', 'conn-1');
      case 'permanent':
        throw new PermanentMessageError('ATS refused the email', 'conn-1', ['email: invalid']);
      case 'slow':
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        return;
      case 'ok':
        return;
    }
  }
}

const queue = `test-messaging-${randomUUID().slice(0, 8)}`;
const delays = [200, 400];

@Module({
  imports: [
    MessagingModule.forRootAsync({
      useFactory: () => ({
        url: rabbitUrl(),
        serviceName: 'messaging-test',
        consumer: {
          queue,
          bindings: [{ exchange: Exchange.PlatformEvents, routingKeys: [RoutingKey.CandidateCreated] }],
          retryDelaysMs: delays,
          prefetch: 5,
        },
      }),
    }),
  ],
  controllers: [TestHandler],
})
class TestModule {}

const candidate = (candidateId: string) =>
  createEvent(RoutingKey.CandidateCreated, 'acct_1', {
    candidateId,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
  });

describe(RabbitMqServer.name, () => {
  let app: INestApplication;
  let broker: TestBroker;
  let failures: Awaited<ReturnType<TestBroker['tap']>>;

  async function startApp(): Promise<INestApplication> {
    const instance = await NestFactory.create(TestModule, { logger: ['error'] });
    connectRabbitMqConsumer(instance);
    await instance.startAllMicroservices();
    await instance.init();
    return instance;
  }

  beforeAll(async () => {
    broker = await TestBroker.connect();
    failures = await broker.tap(Exchange.ConnectorEvents, RoutingKey.OperationFailed);
    app = await startApp();
  });

  afterAll(async () => {
    await app?.close();
    await broker.deleteQueues([
      queue,
      deadLetterQueueName(queue),
      ...delays.map((d) => retryQueueName(queue, d)),
    ]);
    await broker.close();
  });

  it('hands a valid message from a foreign producer to its handler and acknowledges it', async () => {
    const id = `ok-${randomUUID()}`;
    broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, candidate(id));
    await eventually(() => handled.find((h) => h.candidateId === id), 5_000, 'handler call');
    await eventually(async () => (await broker.messageCount(queue)) === 0, 5_000, 'empty queue');
  });

  it('dead-letters a malformed message with its reasons, reports it, and goes on with the next', async () => {
    broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, '{ not json');
    const invalid = { ...candidate('x'), data: { candidateId: 'bad-1', email: 'nope' } };
    broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, invalid);
    const next = `after-bad-${randomUUID()}`;
    broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, candidate(next));

    await eventually(() => handled.find((h) => h.candidateId === next), 5_000, 'next message handled');
    const dead = await eventually(
      async () => {
        const count = await broker.messageCount(deadLetterQueueName(queue));
        return count >= 2 ? broker.getAll(deadLetterQueueName(queue)) : undefined;
      },
      5_000,
      'two dead letters',
    );
    const reasons = dead.map(
      (m) => JSON.parse(String(m.properties.headers?.[Header.DeadLetterReasons])) as string[],
    );
    expect(reasons[0][0]).toMatch(/not JSON/);
    expect(reasons[1]).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^data\.email: /),
        expect.stringMatching(/^data\.firstName: /),
      ]),
    );
    expect(dead[1].content.toString()).toBe(JSON.stringify(invalid));
    expect(handled.some((h) => h.candidateId === 'bad-1')).toBe(false);

    const reports = await eventually(
      () => (failures.length >= 2 ? failures : undefined),
      5_000,
      'two reports',
    );
    const bodies = reports.map(
      (m) => JSON.parse(m.content.toString()) as EventEnvelope<string, Record<string, unknown>>,
    );
    expect(bodies[1]).toMatchObject({
      type: RoutingKey.OperationFailed,
      accountId: 'acct_1',
      data: { sourceEventId: invalid.id, sourceType: RoutingKey.CandidateCreated, retryable: false },
    });
    failures.length = 0;
  });

  it('retries a transient failure with growing delays, then dead-letters and reports it', async () => {
    const id = `transient-${randomUUID()}`;
    behaviour.set(id, 'transient');
    const event = candidate(id);
    const started = Date.now();
    broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, event);

    const dead = await eventually(
      async () => {
        const messages = await broker.getAll(deadLetterQueueName(queue));
        return messages.length > 0 ? messages : undefined;
      },
      10_000,
      'dead letter after retries',
    );
    const attempts = handled.filter((h) => h.candidateId === id).map((h) => h.attempt);
    expect(attempts).toEqual([1, 2, 3]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(600); // 200 + 400 ms of delay queues
    expect(JSON.parse(String(dead[0].properties.headers?.[Header.DeadLetterReasons]))[0]).toBe(
      'gave up after 3 attempts: ATS answered 503',
    );
    const report = await eventually(
      () => failures.find((m) => m.content.toString().includes(event.id)),
      5_000,
    );
    expect(JSON.parse(report.content.toString()).data).toMatchObject({
      connectorId: 'conn-1',
      sourceEventId: event.id,
      retryable: true,
    });
  });

  it('dead-letters a permanent failure at once, with the details', async () => {
    const id = `permanent-${randomUUID()}`;
    behaviour.set(id, 'permanent');
    broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, candidate(id));
    const dead = await eventually(async () => {
      const messages = await broker.getAll(deadLetterQueueName(queue));
      return messages.length > 0 ? messages : undefined;
    }, 5_000);
    expect(handled.filter((h) => h.candidateId === id)).toHaveLength(1);
    expect(JSON.parse(String(dead[0].properties.headers?.[Header.DeadLetterReasons]))).toEqual([
      'ATS refused the email',
      'email: invalid',
    ]);
  });

  it('finishes in-flight work before shutting down', async () => {
    const id = `slow-${randomUUID()}`;
    behaviour.set(id, 'slow');
    broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, candidate(id));
    await eventually(() => handled.find((h) => h.candidateId === id), 5_000);
    await app.close();
    // Acknowledged before the channel closed: nothing left for the next process.
    expect(await broker.messageCount(queue)).toBe(0);
    app = await startApp();
  });

  it('keeps retrying through a retry queue declared as before (classic) until an operator deletes it', async () => {
    await app.close();
    const older = retryQueueName(queue, delays[0]);
    await broker.deleteQueues([older]);
    await broker.channel.assertQueue(older, {
      durable: true,
      arguments: {
        'x-message-ttl': delays[0],
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': queue,
      },
    });
    app = await startApp();
    const id = `transient-${randomUUID()}`;
    behaviour.set(id, 'transient');
    broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateCreated, candidate(id));
    await eventually(
      () => handled.filter((h) => h.candidateId === id).length === 3,
      10_000,
      'three attempts',
    );
  });
});
