import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import amqplib, { type Channel, type ChannelModel, type ConsumeMessage, type GetMessage } from 'amqplib';
import { rabbitmqctl } from './rabbitmqctl';
import { LOCAL_RABBITMQ_URL } from './test-services';

export const rabbitUrl = (): string => process.env.RABBITMQ_URL ?? LOCAL_RABBITMQ_URL;

/** A plain amqplib connection for the test itself: to publish like a foreign producer and to inspect queues. */
export class TestBroker {
  private constructor(
    private readonly connection: ChannelModel,
    readonly channel: Channel,
    /** The broker user it connects as (what the broker stamps as `user_id` on what it publishes). */
    readonly user: string,
  ) {}

  /** As the user of `url` (default RABBITMQ_URL, the suite's vhost as guest). */
  static async connect(url = rabbitUrl()): Promise<TestBroker> {
    const connection = await amqplib.connect(url);
    const user = decodeURIComponent(new URL(url).username) || 'guest';
    return new TestBroker(connection, await connection.createChannel(), user);
  }

  /** Publishes with `user_id` set to this connection's user, as our services do. */
  publish(exchange: string, routingKey: string, body: string | object): void {
    const content = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    this.channel.publish(exchange, routingKey, content, {
      persistent: true,
      contentType: 'application/json',
      userId: this.user,
    });
  }

  /** Collects what arrives on a fresh exclusive queue bound to `exchange` with `routingKey`. */
  async tap(exchange: string, routingKey: string): Promise<ConsumeMessage[]> {
    const received: ConsumeMessage[] = [];
    await this.channel.assertExchange(exchange, 'topic', { durable: true });
    const { queue } = await this.channel.assertQueue('', { exclusive: true, autoDelete: true });
    await this.channel.bindQueue(queue, exchange, routingKey);
    await this.channel.consume(queue, (message) => message && received.push(message), { noAck: true });
    return received;
  }

  async messageCount(queue: string): Promise<number> {
    return (await this.channel.checkQueue(queue)).messageCount;
  }

  async getAll(queue: string): Promise<GetMessage[]> {
    const messages: GetMessage[] = [];
    for (;;) {
      const message = await this.channel.get(queue, { noAck: true });
      if (!message) return messages;
      messages.push(message);
    }
  }

  /** Deletes queues, and the exchange each main queue's copies go through (`<queue>.dlx`), if any. */
  async deleteQueues(names: string[]): Promise<void> {
    for (const name of names) await this.channel.deleteQueue(name);
    await this.deleteQueueExchanges(names);
  }

  /** Whether `queue` exists, asked on a channel of its own (a missing queue closes the channel that asks). */
  async queueExists(queue: string): Promise<boolean> {
    const channel = await this.connection.createChannel();
    channel.on('error', () => undefined);
    try {
      await channel.checkQueue(queue);
      await channel.close().catch(() => undefined);
      return true;
    } catch {
      return false;
    }
  }

  /** Deletes queues that may not exist (and their `<queue>.dlx`); a missing one is not an error. */
  async deleteQueuesIfPresent(names: string[]): Promise<void> {
    for (const name of names) {
      const channel = await this.connection.createChannel();
      channel.on('error', () => undefined);
      await channel.deleteQueue(name).catch(() => undefined);
      await channel.close().catch(() => undefined);
    }
    await this.deleteQueueExchanges(names);
  }

  /** A queue's own exchange outlives the queue: deleted with it, so suites leave none behind on the broker. */
  private async deleteQueueExchanges(queues: string[]): Promise<void> {
    for (const queue of queues) {
      const channel = await this.connection.createChannel();
      channel.on('error', () => undefined);
      await channel.deleteExchange(`${queue}.dlx`).catch(() => undefined);
      await channel.close().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.connection.close().catch(() => undefined);
  }
}

const run = promisify(execFile);

/**
 * Restarts the broker for real (its durable queues and persisted messages must survive), without blocking
 * this process, so publishers and consumers keep working through it. On this machine that is
 * `rabbitmqctl stop_app && start_app` (on RABBITMQCTL_NODE when set); elsewhere set RABBITMQ_RESTART_COMMAND.
 * For the chaos scenario `rabbitmq-restart` only, on a broker of its own: tests share the machine's broker
 * with a running `npm start`, so they cut their own connections instead (`startTcpProxy`).
 */
export async function restartBroker(): Promise<void> {
  const command = process.env.RABBITMQ_RESTART_COMMAND;
  if (command) {
    await run('sh', ['-c', command], { timeout: 120_000 });
    return;
  }
  await rabbitmqctl(['stop_app'], 60_000);
  await new Promise((resolve) => setTimeout(resolve, 1_000)); // publishers see the broker gone for a while
  await rabbitmqctl(['start_app'], 60_000);
  await rabbitmqctl(['await_startup'], 60_000);
}
