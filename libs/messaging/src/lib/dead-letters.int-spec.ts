import { randomUUID } from 'node:crypto';
import { Controller, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, Payload } from '@nestjs/microservices';
import { createEvent, type EventEnvelope, Exchange, RoutingKey } from '@connector/contracts';
import { eventually, rabbitUrl, TestBroker, useTestVhost } from '@connector/testing';
import { connectRabbitMqConsumer } from './connect-consumer';
import { type DeadLetter, DeadLetterCollector, replayDeadLetter } from './dead-letters';
import { PermanentMessageError } from './message-errors';
import { MessagePublisher } from './message-publisher';
import { MessagingModule } from './messaging.module';
import { RabbitConnection } from './rabbitmq.connection';
import { deadLetterQueueName, retryQueueName } from './topology';

// Its own vhost: never the default one, where `npm start` runs (the hermetic guard refuses it).
useTestVhost('dead_letters');

const queue = `test-dead-letters-${randomUUID().slice(0, 8)}`;
let refuse = true;
const handled: string[] = [];

@Controller()
class FlakyHandler {
  @EventPattern(RoutingKey.CandidateUpdated)
  handle(@Payload() event: EventEnvelope<string, { candidateId: string }>) {
    if (refuse) throw new PermanentMessageError('ATS refused the candidate', 'conn-7', ['email: taken']);
    handled.push(event.data.candidateId);
  }
}

@Module({
  imports: [
    MessagingModule.forRootAsync({
      useFactory: () => ({
        url: rabbitUrl(),
        serviceName: 'dead-letter-test',
        consumer: {
          queue,
          bindings: [{ exchange: Exchange.PlatformEvents, routingKeys: [RoutingKey.CandidateUpdated] }],
          retryDelaysMs: [200],
        },
      }),
    }),
  ],
  controllers: [FlakyHandler],
})
class FlakyModule {}

describe(DeadLetterCollector.name, () => {
  let app: INestApplication;
  let connection: RabbitConnection;
  let collector: DeadLetterCollector;
  const kept: DeadLetter[] = [];

  beforeAll(async () => {
    app = await NestFactory.create(FlakyModule, { logger: ['error'] });
    connectRabbitMqConsumer(app);
    await app.startAllMicroservices();
    await app.init();
    connection = new RabbitConnection({ url: rabbitUrl(), name: 'dead-letter-collector-test' });
    collector = new DeadLetterCollector(
      connection,
      [queue],
      async (deadLetter) => void kept.push(deadLetter),
    );
    collector.start();
    await connection.waitForConnect(5_000);
  });

  afterAll(async () => {
    await collector.close();
    await connection.close();
    await app.close();
    const broker = await TestBroker.connect();
    await broker.deleteQueues([queue, deadLetterQueueName(queue), retryQueueName(queue, 200)]);
    await broker.close();
  });

  it('keeps each dead letter with its reasons and origin, and replays it into its queue', async () => {
    const broker = await TestBroker.connect();
    const event = createEvent(RoutingKey.CandidateUpdated, 'acct_9', {
      candidateId: 'cand-1',
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
    });
    broker.publish(Exchange.PlatformEvents, RoutingKey.CandidateUpdated, event);

    const [deadLetter] = await eventually(
      () => (kept.length ? kept : undefined),
      5_000,
      'a kept dead letter',
    );
    expect(deadLetter).toMatchObject({
      queue,
      routingKey: RoutingKey.CandidateUpdated,
      messageId: event.id,
      reasons: ['ATS refused the candidate', 'email: taken'],
      retryable: false,
      accountId: 'acct_9',
      connectorId: 'conn-7',
      type: RoutingKey.CandidateUpdated,
    });
    expect(JSON.parse(deadLetter.body.toString())).toEqual(event);

    refuse = false; // the operator fixed the cause
    await replayDeadLetter(app.get(MessagePublisher), deadLetter, 'replay-1');
    await eventually(() => handled.includes('cand-1'), 5_000, 'the replayed message handled');
    expect(kept).toHaveLength(1);
    await broker.close();
  });
});
