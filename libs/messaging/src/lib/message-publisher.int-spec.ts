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
  });

  afterAll(async () => {
    await publisher?.close();
    await connection?.close();
    await admin?.close();
    await vhost?.drop();
  });

  it('fails a copy into a queue that does not exist, and delivers one into a queue that does', async () => {
    await expect(publisher.publishRaw('', 'not-there', Buffer.from('{}'))).rejects.toThrow(
      'no queue not-there: the broker returned the message unroutable',
    );
    await publisher.publishRaw('', 'there', Buffer.from('{}'));
    expect(await admin.messageCount('there')).toBe(1);
  });
});
