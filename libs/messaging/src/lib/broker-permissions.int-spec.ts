import amqplib, { type ConsumeMessage, type Options } from 'amqplib';
import { createEvent, type EventEnvelope, Exchange, Queue, RoutingKey } from '@connector/contracts';
import { createTestVhost, eventually, TestBroker, type TestVhost } from '@connector/testing';
import { BROKER_SERVICES, type BrokerPrincipal, type BrokerService } from './broker-permissions';
import { setUpVhostBrokerUsers, type VhostBrokerUsers } from '../test/vhost-broker-users';
import { readDeadLetter, replayDeadLetter } from './dead-letters';
import { PermanentMessageError, TransientMessageError } from './message-errors';
import { MessagePublisher } from './message-publisher';
import { RabbitConnection } from './rabbitmq.connection';
import { RabbitMqServer } from './rabbitmq.server';
import { BrokerUsers, outsideHeaderFilter, publisherCheck } from './publisher-check';
import { RpcClient, type RpcError } from './rpc';
import {
  deadLetterQueueName,
  declareConsumerTopology,
  queueExchangeName,
  replyQueueName,
  retryQueueName,
} from './topology';

/**
 * The broker users `npm start` and the deployments create, on a real broker: a user per service and one for
 * the platform, in this suite's own vhost (removed afterwards). What they may not do, the broker refuses.
 */
describe('broker users and their permissions', () => {
  let vhost: TestVhost;
  let users: VhostBrokerUsers;
  let admin: TestBroker;

  /** RABBITMQ_USERS as our services get it: who each of them is on this vhost. */
  const brokerUsers = () => BrokerUsers.parse(users.envOf('connector-registry').RABBITMQ_USERS, '');
  const vacancy = () =>
    createEvent(RoutingKey.VacancyClosed, 'acct_1', { connectorId: 'c1', externalId: 'job-1' });
  const statusChanged = () =>
    createEvent(RoutingKey.ConnectorStatusChanged, 'acct_1', { connectorId: 'c1', status: 'connected' });

  /** Opens a connection as `principal`, runs `use` on a confirm channel; the broker's refusal, or 'ok'. */
  async function as(
    principal: BrokerPrincipal,
    use: (channel: amqplib.ConfirmChannel) => Promise<unknown>,
  ): Promise<string> {
    const connection = await amqplib.connect(users.urlOf(principal));
    const channel = await connection.createConfirmChannel();
    let refusal: string | undefined;
    channel.on('error', (error: Error) => (refusal = error.message));
    try {
      await use(channel);
      await new Promise((resolve) => setTimeout(resolve, 100));
    } catch (error) {
      refusal ??= (error as Error).message;
    } finally {
      await connection.close().catch(() => undefined);
    }
    return refusal ?? 'ok';
  }

  const publishAs = (
    principal: BrokerPrincipal,
    exchange: string,
    routingKey: string,
    body: object,
    properties: Options.Publish = {},
  ) =>
    as(
      principal,
      (channel) =>
        new Promise<void>((resolve, reject) =>
          channel.publish(exchange, routingKey, Buffer.from(JSON.stringify(body)), properties, (error) =>
            error ? reject(error) : resolve(),
          ),
        ),
    );

  beforeAll(async () => {
    vhost = await createTestVhost('broker_users');
    // The consumers below retry after 200 ms: the set-up declares their queues so.
    users = await setUpVhostBrokerUsers(
      vhost.url,
      Object.fromEntries(BROKER_SERVICES.map((service) => [service, { retryDelaysMs: [200] }])),
    );
    admin = await TestBroker.connect(vhost.url);
    for (const exchange of Object.values(Exchange)) {
      await admin.channel.assertExchange(exchange, 'topic', { durable: true });
    }
    // Every service's queue the set-up has declared: none of them may.
  }, 120_000);

  afterAll(async () => {
    await admin?.close();
    await users?.remove();
    await vhost?.drop();
  });

  it('the platform cannot publish to connector.events, connector.internal or straight into a queue', async () => {
    expect(
      await publishAs('platform', Exchange.ConnectorEvents, statusChanged().type, statusChanged()),
    ).toMatch(
      /ACCESS_REFUSED - access to exchange 'connector.events' in vhost '[^']+' refused for user '[^']+\.platform'/,
    );
    const credentials = createEvent(RoutingKey.CredentialsRequested, 'acct_1', { connectorId: 'c1' });
    expect(await publishAs('platform', Exchange.Internal, credentials.type, credentials)).toMatch(
      /ACCESS_REFUSED - access to exchange 'connector.internal'/,
    );
    expect(await publishAs('platform', '', Queue.AuthGateway, credentials)).toMatch(
      /ACCESS_REFUSED - access to exchange 'amq.default'/,
    );
    const candidate = createEvent(RoutingKey.CandidateCreated, 'acct_1', {
      candidateId: 'cand-1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
    });
    expect(await publishAs('platform', Exchange.PlatformEvents, candidate.type, candidate)).toBe('ok');
    // Its own exchange it writes, but may not delete.
    expect(await as('platform', (channel) => channel.deleteExchange(Exchange.PlatformEvents))).toMatch(
      /ACCESS_REFUSED - access to exchange 'platform.events'/,
    );
  });

  it('the platform reads connector.events into its own queues, and no internal command or queue', async () => {
    const queue = 'platform.test-connector-events';
    const received: ConsumeMessage[] = [];
    const connection = await amqplib.connect(users.urlOf('platform'));
    try {
      const channel = await connection.createChannel();
      await channel.assertQueue(queue, { exclusive: true });
      await channel.bindQueue(queue, Exchange.ConnectorEvents, 'vacancy.*');
      await channel.consume(queue, (message) => message && received.push(message), { noAck: true });
      expect(
        await publishAs('vacancy-sync', Exchange.ConnectorEvents, RoutingKey.VacancyClosed, vacancy()),
      ).toBe('ok');
      await eventually(async () => received.length === 1, 5_000, 'vacancy.closed reaches the platform');
    } finally {
      await connection.close();
    }
    expect(
      await as('platform', async (channel) => {
        const { queue: own } = await channel.assertQueue('', { exclusive: true });
        await channel.bindQueue(own, Exchange.Internal, '#');
      }),
    ).toMatch(/ACCESS_REFUSED - access to exchange 'connector.internal'/);
    expect(await as('platform', (channel) => channel.consume(Queue.AuthGateway, () => undefined))).toMatch(
      /ACCESS_REFUSED - access to queue 'auth-gateway.commands'/,
    );
    expect(
      await as('platform', (channel) => channel.assertQueue('auth-gateway.commands.retry.5000ms')),
    ).toMatch(/ACCESS_REFUSED/);
  });

  it('a service publishes only the types it is listed for, and binds only what it consumes', async () => {
    // vacancy-sync may write connector.events (vacancies), but not another service's status change.
    expect(
      await publishAs(
        'vacancy-sync',
        Exchange.ConnectorEvents,
        RoutingKey.ConnectorStatusChanged,
        statusChanged(),
      ),
    ).toMatch(/ACCESS_REFUSED - access to topic 'connector.status_changed' in exchange 'connector.events'/);
    expect(
      await publishAs(
        'auth-gateway',
        Exchange.ConnectorEvents,
        RoutingKey.ConnectorStatusChanged,
        statusChanged(),
      ),
    ).toBe('ok');
    // A worker hears connector.changed on connector.internal, never the commands carrying customers' secrets.
    const bind = (key: string) =>
      as('candidate-sync', async (channel) => {
        const { queue } = await channel.assertQueue('', { exclusive: true });
        await channel.bindQueue(queue, Exchange.Internal, key);
      });
    expect(await bind(RoutingKey.ConnectorChanged)).toBe('ok');
    expect(await bind(RoutingKey.AuthCredentialsSave)).toMatch(
      /ACCESS_REFUSED - access to topic 'auth.credentials.save'/,
    );
    expect(await bind('#')).toMatch(/ACCESS_REFUSED/);
  });

  it('no service may delete or re-declare the shared exchanges, which it only checks', async () => {
    for (const service of BROKER_SERVICES) {
      for (const exchange of Object.values(Exchange)) {
        const refused = expect.stringMatching(
          new RegExp(`ACCESS_REFUSED - access to exchange '${exchange}' in vhost '[^']+' refused`),
        );
        expect([service, exchange, await as(service, (channel) => channel.deleteExchange(exchange))]).toEqual(
          [service, exchange, refused],
        );
        const redeclare = (channel: amqplib.ConfirmChannel) =>
          channel.assertExchange(exchange, 'topic', { durable: true });
        expect([service, exchange, await as(service, redeclare)]).toEqual([service, exchange, refused]);
        expect([service, exchange, await as(service, (channel) => channel.checkExchange(exchange))]).toEqual([
          service,
          exchange,
          'ok',
        ]);
      }
    }
  });

  it('no service may declare a queue, its own neither: the broker set-up has, with its bindings', async () => {
    const topology = { queue: Queue.CandidateSync, bindings: [], retryDelaysMs: [5_000] };
    for (const service of ['candidate-sync', 'document-service'] as const) {
      expect([service, await as(service, (channel) => declareConsumerTopology(channel, topology))]).toEqual([
        service,
        expect.stringMatching(
          /ACCESS_REFUSED - access to (exchange 'candidate-sync.events.dlx'|queue 'candidate-sync.events')/,
        ),
      ]);
    }
    expect(await as('candidate-sync', (channel) => channel.checkQueue(Queue.CandidateSync))).toBe('ok');
  });

  it("refuses a user_id that is not the connection's user, and our publishers always set theirs", async () => {
    expect(
      await publishAs(
        'candidate-sync',
        Exchange.ConnectorEvents,
        RoutingKey.OperationFailed,
        {},
        {
          userId: users.userOf('connector-registry'),
        },
      ),
    ).toMatch(
      /PRECONDITION_FAILED - user_id property set to '[^']+\.connector-registry' but authenticated user was '[^']+\.candidate-sync'/,
    );

    const seen = await admin.tap(Exchange.ConnectorEvents, RoutingKey.VacancyClosed);
    const connection = new RabbitConnection({ url: users.urlOf('vacancy-sync'), name: 'permissions-test' });
    const publisher = new MessagePublisher(connection);
    try {
      await publisher.publish(Exchange.ConnectorEvents, vacancy());
      await eventually(async () => seen.length === 1, 5_000, 'published');
      expect(seen[0]!.properties.userId).toBe(users.userOf('vacancy-sync'));
    } finally {
      await publisher.close();
      await connection.close();
    }
  });

  it("lets no service write into another's queues: not through the default exchange, nor another's own", async () => {
    const synced = createEvent(RoutingKey.CandidateSynced, 'acct_1', {
      connectorId: 'c1',
      candidateId: 'cand-1',
      externalId: 'ats-1',
      action: 'created' as const,
    });
    const defaultExchange = /ACCESS_REFUSED - access to exchange 'amq.default' in vhost '[^']+' refused/;
    for (const principal of ['vacancy-sync', 'candidate-sync', 'connector-registry'] as const) {
      for (const queue of [Queue.DocumentService, deadLetterQueueName(Queue.DocumentService)]) {
        expect([principal, queue, await publishAs(principal, '', queue, synced)]).toEqual([
          principal,
          queue,
          expect.stringMatching(defaultExchange),
        ]);
      }
    }
    // Another service's own exchange (retry and dead-letter copies, replays) is the registry's to write only.
    expect(
      await publishAs(
        'vacancy-sync',
        queueExchangeName(Queue.DocumentService),
        Queue.DocumentService,
        synced,
      ),
    ).toMatch(/ACCESS_REFUSED - access to exchange 'document-service.events.dlx'/);
    expect(
      await publishAs('auth-gateway', Exchange.Replies, Queue.DocumentService, synced, {
        correlationId: 'k1',
      }),
    ).toMatch(/ACCESS_REFUSED - access to topic 'document-service.events' in exchange 'connector.replies'/);
  });

  it("a service's own retries and dead letters, and the registry's replays, pass through its own exchange", async () => {
    const outcome = new Map<string, 'transient-once' | 'permanent'>();
    const attempts: Array<[string, number]> = [];
    // The set-up declared and bound them at the start: what the tests above put there is not this test's.
    await admin.channel.purgeQueue(Queue.CandidateSync);
    await admin.channel.purgeQueue(deadLetterQueueName(Queue.CandidateSync));
    const { close } = await consumeAs('candidate-sync', Queue.CandidateSync, {
      bindings: [{ exchange: Exchange.PlatformEvents, routingKeys: [RoutingKey.CandidateCreated] }],
      handlers: {
        [RoutingKey.CandidateCreated]: (event, attempt) => {
          const candidateId = String((event.data as { candidateId: string }).candidateId);
          attempts.push([candidateId, attempt]);
          const planned = outcome.get(candidateId);
          if (planned === 'permanent') throw new PermanentMessageError('ATS refused it', 'c1');
          if (planned === 'transient-once' && attempt === 1) throw new TransientMessageError('ATS 503', 'c1');
          return Promise.resolve();
        },
      },
    });
    const candidate = (candidateId: string) =>
      createEvent(RoutingKey.CandidateCreated, 'acct_1', {
        candidateId,
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
      });
    const registry = new RabbitConnection({ url: users.urlOf('connector-registry'), name: 'replay-test' });
    const replays = new MessagePublisher(registry);
    try {
      outcome.set('retried', 'transient-once');
      outcome.set('dead', 'permanent');
      const retried = candidate('retried');
      const dead = candidate('dead');
      for (const event of [retried, dead]) {
        expect(await publishAs('platform', Exchange.PlatformEvents, event.type, event)).toBe('ok');
      }
      await eventually(
        async () => attempts.some(([id, attempt]) => id === 'retried' && attempt === 2),
        15_000,
        `the retry through ${retryQueueName(Queue.CandidateSync, 200)} back into its queue`,
      );
      const deadLetterQueue = deadLetterQueueName(Queue.CandidateSync);
      await eventually(
        async () => (await admin.messageCount(deadLetterQueue)) === 1,
        15_000,
        'the dead letter',
      );
      const [deadLetter] = await admin.getAll(deadLetterQueue);
      expect(deadLetter!.fields.exchange).toBe(queueExchangeName(Queue.CandidateSync));
      expect(deadLetter!.properties.userId).toBe(users.userOf('candidate-sync'));

      // Replayed by the registry's user, it is handled again as a first attempt.
      outcome.delete('dead');
      await replayDeadLetter(
        replays,
        { queue: Queue.CandidateSync, routingKey: dead.type, messageId: dead.id, body: deadLetter!.content },
        'replay-1',
      );
      await eventually(
        async () => attempts.filter(([id]) => id === 'dead').length === 2,
        15_000,
        'the replay handled',
      );
    } finally {
      await replays.close();
      await registry.close();
      await close();
    }
  });

  it('believes no control header the platform wrote: its attempt, connector, reasons or x-death', async () => {
    const attempts: number[] = [];
    const { close } = await consumeAs('candidate-sync', Queue.CandidateSync, {
      bindings: [{ exchange: Exchange.PlatformEvents, routingKeys: [RoutingKey.CandidateCreated] }],
      handlers: {
        [RoutingKey.CandidateCreated]: (_event, attempt) => {
          attempts.push(attempt);
          throw attempt === 1
            ? new TransientMessageError('ATS 503')
            : new PermanentMessageError('ATS said no');
        },
      },
    });
    const deadLetterQueue = deadLetterQueueName(Queue.CandidateSync);
    await admin.channel.purgeQueue(deadLetterQueue);
    const event = createEvent(RoutingKey.CandidateCreated, 'acct_1', {
      candidateId: 'forger',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
    });
    const forged = {
      'x-attempt': 99,
      'x-connector-id': 'someone-elses-connector',
      'x-dead-letter-reasons': '["all fine, replay me"]',
      'x-retryable': true,
      'x-failed-at': '2001-01-01T00:00:00.000Z',
      'x-death': [{ queue: Queue.CandidateSync, reason: 'expired', count: 1, 'routing-keys': ['x'] }],
    };
    try {
      expect(
        await publishAs('platform', Exchange.PlatformEvents, event.type, event, { headers: forged }),
      ).toBe('ok');
      await eventually(
        async () => (await admin.messageCount(deadLetterQueue)) === 1,
        15_000,
        'the dead letter after a retry (a forged x-attempt of 99 would have skipped the retry)',
      );
      expect(attempts).toEqual([1, 2]);
      const [copy] = await admin.getAll(deadLetterQueue);
      const headers = copy!.properties.headers ?? {};
      expect(headers['x-connector-id']).toBeUndefined();
      // Only the broker's own record of our retry remains, not the platform's entry for the main queue.
      expect((headers['x-death'] as Array<{ queue: string }>).map((death) => death.queue)).toEqual([
        retryQueueName(Queue.CandidateSync, 200),
      ]);
      const deadLetter = readDeadLetter(Queue.CandidateSync, {
        ...copy!,
        fields: { ...copy!.fields, consumerTag: '' },
      });
      expect(deadLetter.reasons).toEqual(['ATS said no']);
      expect(deadLetter.retryable).toBe(false);
      expect(deadLetter.failedAt.getFullYear()).toBeGreaterThan(2001);
    } finally {
      await close();
    }
  });

  it('answers a request through connector.replies as the answering service, into its asker only', async () => {
    const { close } = await consumeAs('auth-gateway', Queue.AuthGateway, {
      bindings: [{ exchange: Exchange.Internal, routingKeys: [RoutingKey.CredentialsRequested] }],
      handlers: { [RoutingKey.CredentialsRequested]: () => Promise.resolve({ token: 'for-the-asker' }) },
      request: true,
    });
    const connection = new RabbitConnection({ url: users.urlOf('document-service'), name: 'rpc-reply-test' });
    const rpc = new RpcClient(connection, 'document-service', brokerUsers());
    try {
      await expect(
        rpc.request(createEvent(RoutingKey.CredentialsRequested, 'acct_1', { connectorId: 'c1' }), 10_000),
      ).resolves.toEqual({ token: 'for-the-asker' });
    } finally {
      await rpc.close();
      await connection.close();
      await close();
    }
    // Another service cannot listen in on document-service's replies, even with its own queue.
    expect(
      await as('candidate-sync', async (channel) => {
        const { queue: mine } = await channel.assertQueue('', { exclusive: true });
        await channel.bindQueue(mine, Exchange.Replies, replyQueueName('document-service'));
      }),
    ).toMatch(/ACCESS_REFUSED - access to topic '[^']+' in exchange 'connector.replies'/);
  });

  it("the asker believes a reply only from the user of the service that answers the request's type", async () => {
    const requests = await admin.tap(Exchange.Internal, RoutingKey.CredentialsRequested);
    const connection = new RabbitConnection({
      url: users.urlOf('document-service'),
      name: 'rpc-forged-test',
    });
    const rpc = new RpcClient(connection, 'document-service', brokerUsers());
    try {
      const answer = rpc
        .request(createEvent(RoutingKey.CredentialsRequested, 'acct_1', { connectorId: 'c1' }), 3_000)
        .then(
          (data) => ({ believed: data }),
          (error: RpcError) => ({ refused: error.code }),
        );
      await eventually(async () => requests.length === 1, 5_000, 'the request on connector.internal');
      const { replyTo, correlationId } = requests[0]!.properties;
      // The registry may write document-service's reply queues (it answers its connector look-ups), but
      // credentials are auth-gateway's to give.
      const forged = { ok: true, data: { token: 'forged-by-the-registry' } };
      expect(
        await publishAs('connector-registry', Exchange.Replies, String(replyTo), forged, {
          correlationId,
          userId: users.userOf('connector-registry'),
        }),
      ).toBe('ok');
      expect(await answer).toEqual({ refused: 'TIMEOUT' });
    } finally {
      await rpc.close();
      await connection.close();
    }
  });

  /** A consumer of `queue` as `service`'s own broker user, its handlers given per routing key. */
  async function consumeAs(
    service: BrokerService,
    queue: string,
    options: {
      bindings: Array<{ exchange: string; routingKeys: string[] }>;
      handlers: Record<string, (event: EventEnvelope, attempt: number) => Promise<unknown>>;
      request?: boolean;
    },
  ): Promise<{ close: () => Promise<void> }> {
    const connection = new RabbitConnection({
      url: users.urlOf(service),
      name: `${service}-consumer-test`,
      declaredBySetUp: true,
    });
    const publisher = new MessagePublisher(connection);
    const server = new RabbitMqServer(connection, publisher, {
      queue,
      bindings: options.bindings,
      retryDelaysMs: [200],
      verifyPublisher: publisherCheck(service, brokerUsers()),
      dropOutsideHeaders: outsideHeaderFilter(service, brokerUsers()),
    });
    for (const [key, handler] of Object.entries(options.handlers)) {
      server.addHandler(
        key,
        (event: EventEnvelope, context: { getAttempt(): number }) => handler(event, context.getAttempt()),
        !options.request,
      );
    }
    await new Promise<void>((resolve, reject) =>
      server.listen((error) => (error ? reject(error as Error) : resolve())),
    );
    return {
      close: async () => {
        await server.close();
        await publisher.close();
        await connection.close();
      },
    };
  }

  it('RpcClient says who asks, so the answering service can check it', async () => {
    const requests = await admin.tap(Exchange.Internal, RoutingKey.CredentialsRequested);
    const connection = new RabbitConnection({ url: users.urlOf('document-service'), name: 'rpc-test' });
    const rpc = new RpcClient(connection, 'document-service');
    try {
      await rpc
        .request(createEvent(RoutingKey.CredentialsRequested, 'acct_1', { connectorId: 'c1' }), 500)
        .catch(() => undefined);
      await eventually(async () => requests.length === 1, 5_000, 'request seen');
      expect(requests[0]!.properties.userId).toBe(users.userOf('document-service'));
    } finally {
      await rpc.close();
      await connection.close();
    }
  });
});
