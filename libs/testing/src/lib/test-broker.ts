import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import amqplib, { type Channel, type ChannelModel, type ConsumeMessage, type GetMessage } from 'amqplib';
import { LOCAL_RABBITMQ_URL } from './test-services';

export const rabbitUrl = (): string => process.env.RABBITMQ_URL ?? LOCAL_RABBITMQ_URL;

/** A plain amqplib connection for the test itself: to publish like a foreign producer and to inspect queues. */
export class TestBroker {
  private constructor(
    private readonly connection: ChannelModel,
    readonly channel: Channel,
  ) {}

  static async connect(): Promise<TestBroker> {
    const connection = await amqplib.connect(rabbitUrl());
    return new TestBroker(connection, await connection.createChannel());
  }

  publish(exchange: string, routingKey: string, body: string | object): void {
    const content = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    this.channel.publish(exchange, routingKey, content, {
      persistent: true,
      contentType: 'application/json',
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

  async deleteQueues(names: string[]): Promise<void> {
    for (const name of names) await this.channel.deleteQueue(name);
  }

  /** Deletes queues that may not exist; a missing one is not an error. */
  async deleteQueuesIfPresent(names: string[]): Promise<void> {
    for (const name of names) {
      const channel = await this.connection.createChannel();
      channel.on('error', () => undefined);
      await channel.deleteQueue(name).catch(() => undefined);
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
 * `rabbitmqctl stop_app && start_app`; elsewhere set RABBITMQ_RESTART_COMMAND.
 */
export async function restartBroker(): Promise<void> {
  const command = process.env.RABBITMQ_RESTART_COMMAND;
  if (command) {
    await run('sh', ['-c', command], { timeout: 120_000 });
    return;
  }
  await run('rabbitmqctl', ['stop_app'], { timeout: 60_000 });
  await new Promise((resolve) => setTimeout(resolve, 1_000)); // publishers see the broker gone for a while
  await run('rabbitmqctl', ['start_app'], { timeout: 60_000 });
  await run('rabbitmqctl', ['await_startup'], { timeout: 60_000 });
}
