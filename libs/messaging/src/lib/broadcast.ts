import { Logger } from '@nestjs/common';
import type { ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ConsumeMessage } from 'amqplib';
import { type EventEnvelope, validateMessage } from '@connector/contracts';
import type { RabbitConnection } from './rabbitmq.connection';

export interface BroadcastOptions {
  exchange: string;
  routingKey: string;
  /** Called with each valid message; errors are logged, a broadcast is never retried. */
  onMessage: (message: EventEnvelope) => void;
  /**
   * Called each time the subscription (re)starts, e.g. after a reconnect: what was published while it was
   * down is gone, so a cache fed by broadcasts starts afresh here.
   */
  onSubscribed?: () => void;
}

/**
 * Every process gets every message: a server-named, exclusive, auto-deleted queue per process, unlike the
 * services' work queues where one process of a service takes each message. For notices (cache
 * invalidation), not for work: a process that is down misses them.
 */
export class BroadcastListener {
  private readonly logger = new Logger(BroadcastListener.name);
  private readonly channel: ChannelWrapper;

  constructor(connection: RabbitConnection, options: BroadcastOptions) {
    this.channel = connection.createChannel({
      name: `broadcast:${options.routingKey}`,
      json: false,
      confirm: false,
      setup: async (channel: Channel) => {
        await connection.waitForExchanges();
        const { queue } = await channel.assertQueue('', {
          exclusive: true,
          autoDelete: true,
          durable: false,
        });
        await channel.bindQueue(queue, options.exchange, options.routingKey);
        await channel.consume(queue, (message) => message && this.deliver(message, options), {
          noAck: true,
        });
        options.onSubscribed?.();
      },
    });
  }

  /** Resolves once the first subscription is in place. */
  async ready(): Promise<void> {
    await this.channel.waitForConnect();
  }

  async close(): Promise<void> {
    await this.channel.close();
  }

  private deliver(message: ConsumeMessage, options: BroadcastOptions): void {
    const validation = validateMessage(message.content, message.fields.routingKey);
    if (!validation.ok) {
      this.logger.warn(`ignored an invalid ${message.fields.routingKey}: ${validation.errors.join('; ')}`);
      return;
    }
    try {
      options.onMessage(validation.message);
    } catch (error) {
      this.logger.error(`${message.fields.routingKey} handler failed: ${(error as Error).message}`);
    }
  }
}
