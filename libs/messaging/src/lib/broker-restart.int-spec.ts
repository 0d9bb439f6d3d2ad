import { randomUUID } from 'node:crypto';
import amqplib from 'amqplib';
import { Controller, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, Payload } from '@nestjs/microservices';
import { createEvent, type EventEnvelope, Exchange, Header, RoutingKey } from '@connector/contracts';
import { eventually, rabbitUrl, restartBroker, TestBroker, useTestVhost } from '@connector/testing';
import { connectRabbitMqConsumer } from './connect-consumer';
import { MessagePublisher } from './message-publisher';
import { MessagingModule } from './messaging.module';
import { RabbitConnection } from './rabbitmq.connection';
import { deadLetterQueueName, retryQueueName } from './topology';

// Its own vhost: never the default one, where `npm start` runs (the hermetic guard refuses it).
useTestVhost('broker_restart');

const consumerQueue = `test-restart-consumer-${randomUUID().slice(0, 8)}`;
const tapQueue = `test-restart-tap-${randomUUID().slice(0, 8)}`;
const received = new Set<string>();

@Controller()
class Recorder {
  @EventPattern(RoutingKey.DocumentUploaded)
  record(@Payload() event: EventEnvelope) {
    received.add(event.id);
  }
}

@Module({
  imports: [
    MessagingModule.forRootAsync({
      useFactory: () => ({
        url: rabbitUrl(),
        serviceName: 'restart-test',
        consumer: {
          queue: consumerQueue,
          bindings: [{ exchange: Exchange.PlatformEvents, routingKeys: [RoutingKey.DocumentUploaded] }],
          retryDelaysMs: [500],
        },
      }),
    }),
  ],
  controllers: [Recorder],
})
class RecorderModule {}

const document = () =>
  createEvent(RoutingKey.DocumentUploaded, 'acct_restart', {
    documentId: randomUUID(),
    candidateId: 'c1',
    kind: 'cv',
    fileName: 'cv.pdf',
    contentType: 'application/pdf',
    sizeBytes: 10,
    sha256: 'a'.repeat(64),
    url: 'http://127.0.0.1:1/cv.pdf',
  });

describe('broker restart', () => {
  let connection: RabbitConnection;
  let publisher: MessagePublisher;
  let app: INestApplication;

  beforeAll(async () => {
    const broker = await TestBroker.connect();
    await broker.channel.assertExchange(Exchange.PlatformEvents, 'topic', { durable: true });
    await broker.channel.assertQueue(tapQueue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await broker.channel.bindQueue(tapQueue, Exchange.PlatformEvents, RoutingKey.DocumentUploaded);
    await broker.close();
    connection = new RabbitConnection({ url: rabbitUrl(), name: 'restart-test-publisher' });
    publisher = new MessagePublisher(connection, 5_000);
    await connection.waitForConnect(5_000);
    app = await NestFactory.create(RecorderModule, { logger: ['error'] });
    connectRabbitMqConsumer(app);
    await app.startAllMicroservices();
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    await publisher?.close();
    await connection?.close();
    const broker = await TestBroker.connect();
    await broker.deleteQueues([
      tapQueue,
      consumerQueue,
      deadLetterQueueName(consumerQueue),
      retryQueueName(consumerQueue, 500),
    ]);
    await broker.close();
  });

  it('never confirms a message it then loses, and consumers come back by themselves', async () => {
    const confirmed: string[] = [];
    const rejected: string[] = [];
    let publishing = true;
    const publishLoop = (async () => {
      const pending: Promise<void>[] = [];
      while (publishing) {
        const event = document();
        pending.push(
          publisher.publish(Exchange.PlatformEvents, event).then(
            () => void confirmed.push(event.id),
            () => void rejected.push(event.id),
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await Promise.all(pending);
    })();

    await eventually(() => confirmed.length > 20, 10_000, 'confirms before the restart');
    const confirmedBefore = confirmed.length;
    await restartBroker();
    const confirmedBeforeEnd = confirmed.length;
    // Keep publishing until the connection is back and new messages are confirmed again.
    await eventually(() => confirmed.length > confirmedBeforeEnd + 20, 30_000, 'confirms after the restart');
    publishing = false;
    await publishLoop;

    const broker = await TestBroker.connect();
    const inQueue = new Set((await broker.getAll(tapQueue)).map((m) => String(m.properties.messageId)));
    await broker.close();
    const lost = confirmed.filter((id) => !inQueue.has(id));
    expect(lost).toEqual([]);
    expect(confirmed.length + rejected.length).toBeGreaterThan(40);
    // Publishing went on during the restart: some were buffered and confirmed later, or rejected.
    expect(confirmedBeforeEnd - confirmedBefore + rejected.length).toBeGreaterThan(0);

    // The consumer reconnected and took every confirmed message, the ones sent after the restart too.
    await eventually(() => confirmed.every((id) => received.has(id)), 30_000, 'consumer to catch up');
  }, 120_000);

  it('keeps the messages waiting for a retry, those whose delay ends while it stops or is down too', async () => {
    // As the consumer sends a failed message back: into the retry queue, to come back after its 500 ms. Sent
    // until the broker goes away, so that the delays of the last ones end while it stops and while it is down.
    const connection = await amqplib.connect(rabbitUrl());
    connection.on('error', () => undefined);
    const channel = await connection.createConfirmChannel();
    channel.on('error', () => undefined);
    let answered: ((confirmed: boolean) => void) | undefined;
    channel.on('close', () => answered?.(false));
    const waiting: string[] = [];
    // The restart begins once 60 are waiting (however fast this machine confirms), and sending goes on.
    let restarting: Promise<void> | undefined;
    for (;;) {
      if (waiting.length === 60) restarting = restartBroker();
      const event = document();
      const confirmed = await new Promise<boolean>((resolve) => {
        answered = resolve;
        try {
          channel.publish(
            '',
            retryQueueName(consumerQueue, 500),
            Buffer.from(JSON.stringify(event)),
            {
              persistent: true,
              contentType: 'application/json',
              messageId: event.id,
              userId: 'guest',
              headers: { [Header.Attempt]: 2, [Header.OriginalRoutingKey]: RoutingKey.DocumentUploaded },
            },
            (error) => resolve(!error),
          );
        } catch {
          resolve(false);
        }
      });
      if (!confirmed) break;
      waiting.push(event.id);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await connection.close().catch(() => undefined);
    await restarting;
    expect(restarting).toBeDefined();
    expect(waiting.length).toBeGreaterThanOrEqual(60);

    await eventually(
      () => waiting.every((id) => received.has(id)),
      30_000,
      'every waiting message handled after the restart',
    ).catch(() => undefined);
    expect(waiting.filter((id) => !received.has(id))).toEqual([]);
  }, 120_000);
});
