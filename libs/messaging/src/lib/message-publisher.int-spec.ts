import { createTestVhost, TestBroker, type TestVhost } from '@connector/testing';
import { MessagePublisher } from './message-publisher';
import { RabbitConnection } from './rabbitmq.connection';

/** A copy into a queue by name (retry, dead letter, replay) must reach it: an unroutable one fails, never lost. */
describe(MessagePublisher.name, () => {
  let vhost: TestVhost;
  let connection: RabbitConnection;
  let publisher: MessagePublisher;
  let admin: TestBroker;

  beforeAll(async () => {
    vhost = await createTestVhost('publisher_mandatory');
    connection = new RabbitConnection({ url: vhost.url, name: 'publisher-test' });
    publisher = new MessagePublisher(connection);
    admin = await TestBroker.connect(vhost.url);
    await admin.channel.assertQueue('there', { durable: true });
    await admin.channel.assertExchange('there.dlx', 'direct', { durable: true });
    await admin.channel.bindQueue('there', 'there.dlx', 'there');
  });

  afterAll(async () => {
    await publisher?.close();
    await connection?.close();
    await admin?.close();
    await vhost?.drop();
  });

  it('fails a copy into a queue that does not exist, and delivers one into a queue that does', async () => {
    const mandatory = { mandatory: true };
    await expect(
      publisher.publishRaw('there.dlx', 'not-there', Buffer.from('{}'), mandatory),
    ).rejects.toThrow(
      'no queue bound to there.dlx for not-there: the broker returned the message unroutable',
    );
    await publisher.publishRaw('there.dlx', 'there', Buffer.from('{}'), mandatory);
    expect(await admin.messageCount('there')).toBe(1);
  });
});
