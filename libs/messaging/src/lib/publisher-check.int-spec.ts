import { Controller, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  type CandidateSyncedDto,
  createEvent,
  type EventEnvelope,
  Exchange,
  Header,
  Queue,
  RoutingKey,
} from '@connector/contracts';
import { createTestVhost, eventually, TestBroker, type TestVhost } from '@connector/testing';
import { setUpVhostBrokerUsers, type VhostBrokerUsers } from '../test/vhost-broker-users';
import { connectRabbitMqConsumer } from './connect-consumer';
import { MessagePublisher } from './message-publisher';
import { TransientMessageError } from './message-errors';
import { MessagingModule } from './messaging.module';
import { BrokerUsers, publisherCheck } from './publisher-check';
import { RabbitConnection } from './rabbitmq.connection';
import { RabbitMqContext } from './rabbitmq.context';
import { deadLetterQueueName, queueExchangeName } from './topology';

/** candidate.synced as document-service takes it: the first attempt of `flaky-*` fails, to go through a retry. */
const handled: Array<{ externalId: string; attempt: number }> = [];

@Controller()
class CandidateSyncedHandler {
  @EventPattern(RoutingKey.CandidateSynced)
  handle(@Payload() event: EventEnvelope<string, CandidateSyncedDto>, @Ctx() ctx: RabbitMqContext): void {
    handled.push({ externalId: event.data.externalId, attempt: ctx.getAttempt() });
    if (event.data.externalId.startsWith('flaky-') && ctx.getAttempt() === 1) {
      throw new TransientMessageError('ATS answered 503');
    }
  }
}

/**
 * The publisher check on a real consumer, connected as document-service's own broker user: a retry copy
 * (published again by document-service) keeps candidate-sync as its publisher, and a message put into the
 * queue by another service is dead-lettered with the reason and never handled.
 */
describe('publisher check on the consumer', () => {
  let vhost: TestVhost;
  let users: VhostBrokerUsers;
  let app: INestApplication;
  let admin: TestBroker;

  const synced = (externalId: string) =>
    createEvent(RoutingKey.CandidateSynced, 'acct_1', {
      connectorId: 'c1',
      candidateId: 'cand-1',
      externalId,
      action: 'created' as const,
    });

  async function publishAs(
    principal: 'candidate-sync' | 'vacancy-sync' | 'connector-registry',
    send: (publisher: MessagePublisher) => Promise<void>,
  ): Promise<void> {
    const connection = new RabbitConnection({ url: users.urlOf(principal), name: `test-${principal}` });
    const publisher = new MessagePublisher(connection);
    try {
      await send(publisher);
    } finally {
      await publisher.close();
      await connection.close();
    }
  }

  beforeAll(async () => {
    vhost = await createTestVhost('publisher_check');
    // The consumer below retries after 200 ms: the set-up declares its queues so (it may declare none itself).
    users = await setUpVhostBrokerUsers(vhost.url, { 'document-service': { retryDelaysMs: [200] } });
    const { RABBITMQ_URL, RABBITMQ_USERS } = users.envOf('document-service');

    @Module({
      imports: [
        MessagingModule.forRootAsync({
          useFactory: () => ({
            url: RABBITMQ_URL,
            serviceName: 'document-service',
            // Its own broker user, as in production: the set-up declared its queues.
            declaredBySetUp: true,
            consumer: {
              queue: Queue.DocumentService,
              bindings: [{ exchange: Exchange.ConnectorEvents, routingKeys: [RoutingKey.CandidateSynced] }],
              retryDelaysMs: [200],
              verifyPublisher: publisherCheck(
                'document-service',
                BrokerUsers.parse(RABBITMQ_USERS, 'not-used-when-set'),
              ),
            },
          }),
        }),
      ],
      controllers: [CandidateSyncedHandler],
    })
    class DocumentServiceModule {}

    app = await NestFactory.create(DocumentServiceModule, { logger: ['error'] });
    connectRabbitMqConsumer(app);
    await app.startAllMicroservices();
    await app.init();
    admin = await TestBroker.connect(vhost.url);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await admin?.close();
    await users?.remove();
    await vhost?.drop();
  });

  it("takes candidate-sync's candidate.synced, also on its retry", async () => {
    await publishAs('candidate-sync', (publisher) =>
      publisher.publish(Exchange.ConnectorEvents, synced('flaky-1')),
    );
    await eventually(
      () => handled.filter((h) => h.externalId === 'flaky-1').length === 2,
      10_000,
      'the retry handled',
    );
    expect(handled.filter((h) => h.externalId === 'flaky-1').map((h) => h.attempt)).toEqual([1, 2]);
    expect(await admin.messageCount(deadLetterQueueName(Queue.DocumentService))).toBe(0);
  });

  it('dead-letters one the registry put into the queue (not as a replay), naming its publisher', async () => {
    const forged = synced('ats-elsewhere');
    // The registry is the one other service that may write into this queue (through its own exchange: replays).
    await publishAs('connector-registry', (publisher) =>
      publisher.publishRaw(
        queueExchangeName(Queue.DocumentService),
        Queue.DocumentService,
        Buffer.from(JSON.stringify(forged)),
        {
          messageId: forged.id,
          mandatory: true,
          // Claims to be a retry of candidate-sync's message: not believed from the registry unless a replay.
          headers: {
            [Header.OriginalRoutingKey]: forged.type,
            [Header.PublishedBy]: users.userOf('candidate-sync'),
          },
        },
      ),
    );
    const [dead] = await eventually(
      async () => {
        const messages = await admin.getAll(deadLetterQueueName(Queue.DocumentService));
        return messages.length > 0 ? messages : undefined;
      },
      5_000,
      'the dead letter',
    );
    expect(JSON.parse(String(dead!.properties.headers?.[Header.DeadLetterReasons]))).toEqual([
      `refused candidate.synced from broker user "${users.userOf('connector-registry')}": only candidate-sync may publish it`,
    ]);
    expect(dead!.properties.headers?.[Header.PublishedBy]).toBe(users.userOf('connector-registry'));
    expect(handled.some((h) => h.externalId === 'ats-elsewhere')).toBe(false);
  });
});
