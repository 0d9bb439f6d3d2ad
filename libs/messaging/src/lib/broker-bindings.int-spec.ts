import amqplib, { type Channel, type ChannelModel } from 'amqplib';
import { Exchange, Queue, RoutingKey } from '@connector/contracts';
import { createTestVhost, type TestVhost } from '@connector/testing';
import {
  BROKER_SERVICES,
  type BrokerService,
  brokerTopicPermissions,
  SERVICE_CONSUMES,
} from './broker-permissions';
import { setUpVhostBrokerUsers, type VhostBrokerUsers } from '../test/vhost-broker-users';
import { deadLetterQueueName, queueExchangeName, replyQueueName, retryQueueName } from './topology';

// Issue 34: no way around the topic permissions through an exchange-to-exchange binding. Each service on a
// vhost of its own: what one service binds there is its own doing only.

/** Every name a service might try to make an exchange of, or bind into connector.events from. */
function candidateNames(service: BrokerService): string[] {
  const { queue } = SERVICE_CONSUMES[service];
  return [
    queue,
    queueExchangeName(queue),
    deadLetterQueueName(queue),
    retryQueueName(queue, 5_000),
    replyQueueName(service),
    'amq.gen-forged',
    ...Object.values(Exchange),
    ...Object.values(Queue).map(queueExchangeName),
  ];
}

/** Routing keys the service may not publish on connector.events (a platform consumer trusts them). */
function forbiddenKeys(service: BrokerService): string[] {
  const events = brokerTopicPermissions()[service].find((p) => p.exchange === Exchange.ConnectorEvents);
  const keys = [
    RoutingKey.ConnectorStatusChanged,
    RoutingKey.CandidateSynced,
    RoutingKey.RunRequested,
    'forged.key',
    ...BROKER_SERVICES.map((other) => replyQueueName(other, '00000000-0000-4000-8000-000000000000')),
  ];
  return keys.filter((key) => !new RegExp(events?.write ?? '^$').test(key));
}

/** Runs `work` on a confirm channel of its own; a refusal closes it and is the answer. */
async function attempt(
  connection: ChannelModel,
  work: (channel: Channel) => Promise<unknown>,
): Promise<void> {
  const channel = await connection.createConfirmChannel();
  channel.on('error', () => undefined);
  try {
    await work(channel);
    await channel.waitForConfirms();
    await channel.close();
  } catch {
    /* refused: the broker closed the channel */
  }
}

/** A vhost with the broker set-up's users and topology, and a platform-style queue taking all of connector.events. */
async function platformListening(): Promise<{
  users: VhostBrokerUsers;
  admin: ChannelModel;
  heard: () => Promise<string[]>;
  drop: () => Promise<void>;
}> {
  const vhost: TestVhost = await createTestVhost('broker_bindings');
  const users = await setUpVhostBrokerUsers(vhost.url);
  const admin = await amqplib.connect(vhost.url);
  const channel = await admin.createChannel();
  const { queue } = await channel.assertQueue('platform.everything', { durable: false });
  await channel.bindQueue(queue, Exchange.ConnectorEvents, '#');
  return {
    users,
    admin,
    heard: async () => {
      const heard: string[] = [];
      for (let message = await channel.get(queue); message; message = await channel.get(queue)) {
        heard.push(`${message.fields.exchange}/${message.fields.routingKey}`);
      }
      return heard;
    },
    drop: async () => {
      await admin.close().catch(() => undefined);
      await users.remove();
      await vhost.drop();
    },
  };
}

describe('exchange-to-exchange bindings around the topic permissions', () => {
  it.each(BROKER_SERVICES)(
    'let %s put no routing key it may not publish into connector.events',
    async (service) => {
      const { users, heard, drop } = await platformListening();
      try {
        // No Nagle: after a refusal the next channel's open would wait out the broker's delayed ACK (~40 ms).
        const connection = await amqplib.connect(users.urlOf(service), { noDelay: true });
        const names = candidateNames(service);
        const keys = forbiddenKeys(service);
        try {
          for (const name of names) {
            await attempt(connection, (channel) => channel.assertExchange(name, 'topic', { durable: false }));
            await attempt(connection, (channel) =>
              channel.assertExchange(name, 'direct', { durable: false }),
            );
          }
          for (const name of names) {
            for (const key of ['#', ...keys]) {
              await attempt(connection, (channel) =>
                channel.bindExchange(Exchange.ConnectorEvents, name, key),
              );
            }
          }
          for (const name of names) {
            for (const key of keys) {
              await attempt(connection, async (channel) =>
                channel.publish(name, key, Buffer.from('{}'), { userId: users.userOf(service) }),
              );
            }
          }
          // What it may publish the platform does hear: the queue listens.
          await attempt(connection, async (channel) =>
            channel.publish(Exchange.ConnectorEvents, RoutingKey.OperationFailed, Buffer.from('{}'), {
              userId: users.userOf(service),
            }),
          );
        } finally {
          await connection.close().catch(() => undefined);
        }
        // Every attempt was confirmed or refused: whatever it routed is in the queue now.
        expect([service, await heard()]).toEqual([
          service,
          [`${Exchange.ConnectorEvents}/${RoutingKey.OperationFailed}`],
        ]);
      } finally {
        await drop();
      }
    },
    60_000,
  );
});
