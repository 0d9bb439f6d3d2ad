import type { ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel } from 'amqplib';
import { type EventEnvelope, validateMessage } from '@connector/contracts';
import { declareExchanges } from './topology';
import type { RabbitConnection } from './rabbitmq.connection';

export interface PublishOptions {
  headers?: Record<string, unknown>;
}

export const DEFAULT_PUBLISH_TIMEOUT_MS = 10_000;

/**
 * Publishes with publisher confirms: `publish` resolves only once the broker has the message (persisted,
 * for durable queues) and rejects when it nacks or does not confirm within the timeout, including while
 * the broker is unreachable. It never resolves for a message the broker does not have.
 */
export class MessagePublisher {
  private readonly channel: ChannelWrapper;

  constructor(connection: RabbitConnection, timeoutMs = DEFAULT_PUBLISH_TIMEOUT_MS) {
    this.channel = connection.createChannel({
      name: 'publisher',
      confirm: true,
      json: false,
      publishTimeout: timeoutMs,
      setup: (channel: ConfirmChannel) => declareExchanges(channel),
    });
  }

  /** Publishes a contract message; an envelope that breaks the contract is a bug and is refused here. */
  async publish(exchange: string, envelope: EventEnvelope, options: PublishOptions = {}): Promise<void> {
    const body = Buffer.from(JSON.stringify(envelope));
    const validation = validateMessage(body, envelope.type);
    if (!validation.ok) {
      throw new Error(`refusing to publish an invalid ${envelope.type}: ${validation.errors.join('; ')}`);
    }
    await this.publishRaw(exchange, envelope.type, body, {
      messageId: envelope.id,
      headers: options.headers,
    });
  }

  /** Publishes bytes as they are (retry and dead-letter copies, replays). */
  async publishRaw(
    exchange: string,
    routingKey: string,
    body: Buffer,
    properties: { messageId?: string; headers?: Record<string, unknown>; contentType?: string } = {},
  ): Promise<void> {
    await this.channel.publish(exchange, routingKey, body, {
      persistent: true,
      contentType: properties.contentType ?? 'application/json',
      messageId: properties.messageId,
      headers: properties.headers,
      timestamp: Math.floor(Date.now() / 1000),
    });
  }

  async close(): Promise<void> {
    await this.channel.close();
  }
}
