import { randomUUID } from 'node:crypto';
import {
  Controller,
  type INestApplication,
  Injectable,
  Module,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern } from '@nestjs/microservices';
import { Exchange, RoutingKey } from '@connector/contracts';
import { rabbitUrl, TestBroker, useTestVhost } from '@connector/testing';
import { startRabbitMqConsumer } from './connect-consumer';
import { MessagingModule } from './messaging.module';
import { deadLetterQueueName, retryQueueName } from './topology';

// Its own vhost: never the default one, where `npm start` runs (the hermetic guard refuses it).
useTestVhost('connect_consumer');

const queue = `test-hooks-${randomUUID().slice(0, 8)}`;
const calls: string[] = [];

/** A provider with a timer to start, as the scheduler, the retention job and the outbox relay have. */
@Injectable()
class Lifecycle implements OnModuleInit, OnApplicationBootstrap {
  onModuleInit(): void {
    calls.push('init');
  }

  onApplicationBootstrap(): void {
    calls.push('bootstrap');
  }
}

@Controller()
class Handler {
  @EventPattern(RoutingKey.ConnectorChanged)
  handle(): void {
    // Nothing is published to it: the consumer is here to be started.
  }
}

@Module({
  imports: [
    MessagingModule.forRootAsync({
      useFactory: () => ({
        url: rabbitUrl(),
        serviceName: 'hooks-test',
        consumer: {
          queue,
          bindings: [{ exchange: Exchange.Internal, routingKeys: [RoutingKey.ConnectorChanged] }],
          retryDelaysMs: [1_000],
        },
      }),
    }),
  ],
  controllers: [Handler],
  providers: [Lifecycle],
})
class HooksModule {}

describe(startRabbitMqConsumer.name, () => {
  let app: INestApplication;

  afterAll(async () => {
    await app?.close();
    const broker = await TestBroker.connect();
    await broker.deleteQueuesIfPresent([queue, deadLetterQueueName(queue), retryQueueName(queue, 1_000)]);
    await broker.close();
  });

  it("runs the app's lifecycle hooks once, before the consumer starts, however the app is started after", async () => {
    app = await NestFactory.create(HooksModule, { logger: ['error'] });
    await startRabbitMqConsumer(app);
    await app.listen(0, '127.0.0.1');
    expect(calls).toEqual(['init', 'bootstrap']);
  });
});
