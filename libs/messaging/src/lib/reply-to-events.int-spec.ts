import { Logger } from '@nestjs/common';
import amqplib, { type ConsumeMessage } from 'amqplib';
import { createEvent, type EventEnvelope, Exchange, Queue, RoutingKey } from '@connector/contracts';
import { createTestVhost, eventually, TestBroker, type TestVhost } from '@connector/testing';
import type { BrokerService } from './broker-permissions';
import { setUpVhostBrokerUsers, type VhostBrokerUsers } from '../test/vhost-broker-users';
import { MessagePublisher } from './message-publisher';
import { BrokerUsers, publisherCheck } from './publisher-check';
import { RabbitConnection } from './rabbitmq.connection';
import type { RabbitMqContext } from './rabbitmq.context';
import { RabbitMqServer } from './rabbitmq.server';
import { deadLetterQueueName, replyQueueName, retryQueueName } from './topology';

/**
 * A platform event that names a reply address (`replyTo`) is an event, not a request: the services that
 * consume it handle it once and answer nothing. Were they to answer, the broker would refuse it (they may
 * not write to `connector.replies`) by closing the channel, and every message in flight on it would come
 * back with its delivery count raised, the poison among them, until the delivery limit.
 */
describe('a platform event with replyTo', () => {
  let vhost: TestVhost;
  let users: VhostBrokerUsers;
  let admin: TestBroker;
  const stops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    Logger.overrideLogger(['error']);
    vhost = await createTestVhost('reply_to_events');
    users = await setUpVhostBrokerUsers(vhost.url);
    admin = await TestBroker.connect(vhost.url);
  });

  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
    await admin?.close();
    await users?.remove();
    await vhost?.drop();
  });

  interface Delivery {
    type: string;
    id: string;
    redelivered: boolean;
    deliveryCount: unknown;
  }

  /** A consumer of `service`'s queue as its own broker user, with the publisher check on as in production. */
  async function consumeAs(service: BrokerService, queue: string, inFlightType: string, slow: Promise<void>) {
    const deliveries: Delivery[] = [];
    const env = users.envOf(service);
    const connection = new RabbitConnection({
      url: env.RABBITMQ_URL,
      name: `${service}-reply-to-test`,
      declaredBySetUp: true,
    });
    const publisher = new MessagePublisher(connection);
    const server = new RabbitMqServer(connection, publisher, {
      queue,
      bindings: [
        {
          exchange: Exchange.PlatformEvents,
          routingKeys: [RoutingKey.CandidateErased, inFlightType],
        },
      ],
      retryDelaysMs: [5_000],
      deferralDelaysMs: [],
      verifyPublisher: publisherCheck(service, BrokerUsers.parse(env.RABBITMQ_USERS, users.userOf(service))),
    });
    const record = (event: EventEnvelope, ctx: RabbitMqContext) => {
      const message: ConsumeMessage = ctx.getMessage();
      deliveries.push({
        type: event.type,
        id: (event.data as { candidateId: string }).candidateId,
        redelivered: message.fields.redelivered,
        deliveryCount: message.properties.headers?.['x-delivery-count'],
      });
    };
    server.addHandler(
      RoutingKey.CandidateErased,
      async (e: EventEnvelope, c: RabbitMqContext) => record(e, c),
      true,
    );
    // A message in flight while the poison comes: it must finish on the same channel, not come again.
    const slowHandler = async (event: EventEnvelope, ctx: RabbitMqContext) => {
      record(event, ctx);
      await slow;
    };
    server.addHandler(inFlightType, slowHandler, true);
    await new Promise<void>((resolve, reject) =>
      server.listen((error) => (error ? reject(error as Error) : resolve())),
    );
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      await server.close();
      await publisher.close();
      await connection.close();
    };
    stops.push(async () => {
      await stop();
      await admin.deleteQueues([queue, deadLetterQueueName(queue), retryQueueName(queue, 5_000)]);
    });
    return { deliveries, stop };
  }

  it('is handled once as the event by every consumer, whose channels stay open (nothing redelivered)', async () => {
    let finishSlow: () => void = () => undefined;
    const slow = new Promise<void>((resolve) => (finishSlow = resolve));
    const candidateSync = await consumeAs(
      'candidate-sync',
      Queue.CandidateSync,
      RoutingKey.CandidateCreated,
      slow,
    );
    const documentService = await consumeAs(
      'document-service',
      Queue.DocumentService,
      RoutingKey.DocumentUploaded,
      slow,
    );
    const consumers = {
      'candidate-sync': candidateSync.deliveries,
      'document-service': documentService.deliveries,
    };

    const platform = await amqplib.connect(users.urlOf('platform'));
    try {
      const channel = await platform.createConfirmChannel();
      const publish = (routingKey: string, body: object, properties: amqplib.Options.Publish = {}) =>
        new Promise<void>((resolve, reject) =>
          channel.publish(
            Exchange.PlatformEvents,
            routingKey,
            Buffer.from(JSON.stringify(body)),
            {
              persistent: true,
              contentType: 'application/json',
              userId: users.userOf('platform'),
              ...properties,
            },
            (error) => (error ? reject(error as Error) : resolve()),
          ),
        );
      // In flight first on both consumers: one of the events each takes, held until the end.
      await publish(
        RoutingKey.CandidateCreated,
        createEvent(RoutingKey.CandidateCreated, 'acct_1', {
          candidateId: 'in-flight',
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'ada@example.com',
        }),
      );
      await publish(
        RoutingKey.DocumentUploaded,
        createEvent(RoutingKey.DocumentUploaded, 'acct_1', {
          documentId: 'd1',
          candidateId: 'in-flight',
          kind: 'cv',
          fileName: 'cv.pdf',
          contentType: 'application/pdf',
          sizeBytes: 10,
          sha256: 'a'.repeat(64),
          url: 'https://files.example.com/cv.pdf',
        }),
      );
      await eventually(
        () => Object.values(consumers).every((d) => d.some((x) => x.id === 'in-flight')),
        10_000,
        'a message in flight on each consumer',
      );

      // The poison: an event naming a reply queue none of these consumers may answer into.
      await publish(
        RoutingKey.CandidateErased,
        createEvent(RoutingKey.CandidateErased, 'acct_1', { candidateId: 'poison' }),
        {
          replyTo: replyQueueName('connector-registry'),
          correlationId: 'k1',
        },
      );
      await publish(
        RoutingKey.CandidateErased,
        createEvent(RoutingKey.CandidateErased, 'acct_1', { candidateId: 'after' }),
      );
      await eventually(
        () => Object.values(consumers).every((d) => d.some((x) => x.id === 'after')),
        10_000,
        'the event after the poison handled by each consumer',
      );
    } finally {
      await platform.close();
    }
    finishSlow();
    // Stopping drains what runs, then closes the channel: anything not acknowledged would be back in the queue.
    await candidateSync.stop();
    await documentService.stop();
    expect(await admin.messageCount(Queue.CandidateSync)).toBe(0);
    expect(await admin.messageCount(Queue.DocumentService)).toBe(0);

    for (const [service, deliveries] of Object.entries(consumers)) {
      // Once each, never redelivered, delivery count never raised: no channel closed under them.
      expect({ service, ids: deliveries.map((d) => d.id).sort() }).toEqual({
        service,
        ids: ['after', 'in-flight', 'poison'],
      });
      for (const delivery of deliveries) {
        expect({ service, ...delivery, redelivered: false, deliveryCount: undefined }).toEqual({
          service,
          ...delivery,
        });
      }
      expect(deliveries.find((d) => d.id === 'poison')?.type).toBe(RoutingKey.CandidateErased);
    }
  });
});
