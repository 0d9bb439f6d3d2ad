import { randomBytes } from 'node:crypto';
import type { FactoryProvider } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { createEvent } from '@connector/contracts';
import { MessagePublisher, RabbitConnection } from '@connector/messaging';
import { addToOutbox, OUTBOX_SCHEMA, type OutboxRelay } from '@connector/persistence';
import { migratedDataSource } from '@connector/persistence/testing';
import {
  createTestDatabase,
  createTestVhost,
  eventually,
  TestBroker,
  type TestDatabase,
  type TestVhost,
} from '@connector/testing';
import { outboxRelayProvider } from './outbox-relay.provider';

describe(outboxRelayProvider.name, () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let vhost: TestVhost;
  let connection: RabbitConnection;
  let publisher: MessagePublisher;
  let broker: TestBroker;
  let relay: OutboxRelay;

  beforeAll(async () => {
    database = await createTestDatabase('outbox_mandatory');
    const schema = { service: 'outbox-mandatory', entities: [], migrations: [], shared: [OUTBOX_SCHEMA] };
    dataSource = await migratedDataSource(database.url, schema);
    vhost = await createTestVhost('outbox_mandatory');
    connection = new RabbitConnection({ url: vhost.url, name: 'outbox-mandatory-test' });
    publisher = new MessagePublisher(connection);
    broker = await TestBroker.connect(vhost.url);
    const provider = outboxRelayProvider('outbox-test') as FactoryProvider<OutboxRelay>;
    relay = provider.useFactory(dataSource, publisher, connection) as OutboxRelay;
  });

  afterAll(async () => {
    await relay?.stop();
    await publisher?.close();
    await connection?.close();
    await broker?.close();
    await vhost?.drop();
    await dataSource?.destroy();
    await database?.drop();
  });

  it('keeps a row no queue takes in the outbox, and publishes it once a queue is bound', async () => {
    // An exchange of this test's own, so no other test's binding can route the message.
    const exchange = `outbox-test-${randomBytes(4).toString('hex')}`;
    await broker.channel.assertExchange(exchange, 'topic', { durable: true });
    const event = createEvent('connector.status_changed', 'acct_1', {
      connectorId: 'c1',
      status: 'disabled',
    });
    await dataSource.transaction((manager) =>
      addToOutbox(manager, 'outbox-test', [{ exchange, envelope: event }]),
    );
    const unsent = () =>
      dataSource.query(
        `SELECT "attempts", "last_error" FROM "outbox_message" WHERE "message_id" = $1 AND "sent_at" IS NULL`,
        [event.id],
      ) as Promise<Array<{ attempts: number; last_error: string | null }>>;

    await eventually(async () => connection.isConnected() || undefined, 10_000, 'the broker connection');
    const first = await relay.relayOnce();
    expect(first).toMatchObject({
      sent: 0,
      failure: expect.stringMatching(/returned the message unroutable/),
    });
    expect(await unsent()).toEqual([
      { attempts: 1, last_error: expect.stringMatching(/no queue bound to .* for connector.status_changed/) },
    ]);

    const received = await broker.tap(exchange, '#');
    await expect(relay.relayOnce()).resolves.toMatchObject({ sent: 1 });
    expect(await unsent()).toEqual([]);
    await eventually(async () => received.length > 0 || undefined, 10_000, 'the bound queue to get the row');
    await broker.channel.deleteExchange(exchange);
  });
});
