import { Logger } from '@nestjs/common';
import { createEvent, type EventEnvelope, Exchange, Queue, RoutingKey } from '@connector/contracts';
import {
  createSharedExchanges,
  createTestVhost,
  eventually,
  TestBroker,
  type TestVhost,
} from '@connector/testing';
import { MessagePublisher } from './message-publisher';
import { MissingExchangesError, RabbitConnection } from './rabbitmq.connection';
import { RabbitMqServer } from './rabbitmq.server';

/**
 * Our services only check the shared exchanges (their broker users may not declare them): one that starts
 * before the broker set-up created them says which are missing, waits, and starts once they exist; or gives
 * up, saying so, when its wait runs out.
 */
describe('a service started before the shared exchanges exist', () => {
  let vhost: TestVhost;
  let connection: RabbitConnection | undefined;
  let publisher: MessagePublisher | undefined;
  let server: RabbitMqServer | undefined;

  beforeEach(async () => {
    vhost = await createTestVhost('no_exchanges', { exchanges: false });
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await server?.close().catch(() => undefined);
    await publisher?.close().catch(() => undefined);
    await connection?.close().catch(() => undefined);
    await vhost.drop();
  });

  function consumer(exchangesWaitMs?: number) {
    connection = new RabbitConnection({ url: vhost.url, name: 'missing-exchanges-test', exchangesWaitMs });
    publisher = new MessagePublisher(connection);
    server = new RabbitMqServer(connection, publisher, {
      queue: Queue.CandidateSync,
      bindings: [{ exchange: Exchange.PlatformEvents, routingKeys: [RoutingKey.CandidateErased] }],
      retryDelaysMs: [200],
    });
    const handled: EventEnvelope[] = [];
    server.addHandler(
      RoutingKey.CandidateErased,
      (event: EventEnvelope) => {
        handled.push(event);
        return Promise.resolve();
      },
      true,
    );
    let started: 'started' | Error | undefined;
    const listening = new Promise<void>((resolve, reject) =>
      server!.listen((error) => {
        started = error ? (error as Error) : 'started';
        return error ? reject(error as Error) : resolve();
      }),
    );
    listening.catch(() => undefined);
    return { listening, handled, started: () => started };
  }

  it('says which are missing and who creates them, waits, and starts once they exist', async () => {
    const warned = jest.spyOn(Logger.prototype, 'warn');
    const { listening, handled, started } = consumer();
    await eventually(
      () =>
        warned.mock.calls.some(([message]) =>
          /exchanges platform\.events, connector\.events, connector\.internal, connector\.replies missing in vhost 'no_exchanges_[0-9a-f]+': the broker set-up creates them/.test(
            String(message),
          ),
        ),
      15_000,
      'the warning naming the missing exchanges',
    );
    expect(started()).toBeUndefined();

    await createSharedExchanges(vhost.url);
    await listening;
    const admin = await TestBroker.connect(vhost.url);
    try {
      const erased = createEvent(RoutingKey.CandidateErased, 'acct_1', { candidateId: 'cand-1' });
      admin.publish(Exchange.PlatformEvents, erased.type, erased);
      await eventually(() => handled.length === 1, 15_000, 'the message consumed once the exchanges exist');
      const seen = await admin.tap(Exchange.ConnectorEvents, RoutingKey.VacancyClosed);
      await publisher!.publish(
        Exchange.ConnectorEvents,
        createEvent(RoutingKey.VacancyClosed, 'acct_1', { connectorId: 'c1', externalId: 'job-1' }),
      );
      await eventually(() => seen.length === 1, 5_000, 'the publisher publishing');
    } finally {
      await admin.close();
    }
  });

  it('gives up when they never come, naming them, and the start fails', async () => {
    const { listening } = consumer(500);
    const failure = await listening.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(MissingExchangesError);
    expect((failure as MissingExchangesError).exchanges).toEqual(Object.values(Exchange));
    expect((failure as Error).message).toMatch(/gave up after 1 s/);
  });
});
