import { randomUUID } from 'node:crypto';
import type { ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel, Message } from 'amqplib';
import { type EventEnvelope, Exchange, validateMessage } from '@connector/contracts';
import { injectTraceContext, inSpan, SpanKind } from '@connector/observability';
import { withCorrelation } from './message-observer';
import type { RabbitConnection } from './rabbitmq.connection';

export interface PublishOptions {
  headers?: Record<string, unknown>;
  /**
   * Must reach a queue: one no binding routes is returned by the broker and the publish fails, where it
   * would otherwise be confirmed and dropped (the outbox keeps such a row). Copies into a queue by name
   * (retry and dead-letter copies, replays) always are.
   */
  mandatory?: boolean;
}

export const DEFAULT_PUBLISH_TIMEOUT_MS = 10_000;

/**
 * Publishes with publisher confirms: `publish` resolves only once the broker has the message (persisted,
 * for durable queues) and rejects when it nacks or does not confirm within the timeout, including while
 * the broker is unreachable. It never resolves for a message the broker does not have.
 */
export class MessagePublisher {
  private readonly channel: ChannelWrapper;
  private readonly user: string;

  constructor(connection: RabbitConnection, timeoutMs = DEFAULT_PUBLISH_TIMEOUT_MS) {
    this.user = connection.user;
    this.channel = connection.createChannel({
      name: 'publisher',
      confirm: true,
      json: false,
      publishTimeout: timeoutMs,
      setup: async (channel: ConfirmChannel) => {
        // The broker returns an unroutable mandatory message before it confirms it.
        channel.on('return', (message: Message) =>
          this.returned.add(String(message.properties.correlationId)),
        );
        await connection.waitForExchanges();
      },
    });
  }

  /** Mandatory publishes the broker returned (unroutable), by the correlation id each was sent with. */
  private readonly returned = new Set<string>();

  /**
   * Publishes a contract message. Published while a message is handled, it carries that message's
   * correlation id unless it names its own. Each message is validated once: one for the platform
   * (`connector.events`) here, as we write strictly what other teams consume; one between our services by
   * its consumer (which dead-letters an invalid one with its reasons and reports it).
   */
  async publish(exchange: string, message: EventEnvelope, options: PublishOptions = {}): Promise<void> {
    const envelope = withCorrelation(message);
    const body = Buffer.from(JSON.stringify(envelope));
    if (exchange === Exchange.ConnectorEvents) {
      const validation = validateMessage(body, envelope.type);
      if (!validation.ok) {
        throw new Error(`refusing to publish an invalid ${envelope.type}: ${validation.errors.join('; ')}`);
      }
    }
    await this.publishRaw(exchange, envelope.type, body, {
      messageId: envelope.id,
      headers: options.headers,
      mandatory: options.mandatory,
    });
  }

  /**
   * Publishes bytes as they are (retry and dead-letter copies, replays). With tracing on, the trace context
   * goes along in the `traceparent` header; a copy that has one keeps it, so a retry stays in its trace.
   */
  async publishRaw(
    exchange: string,
    routingKey: string,
    body: Buffer,
    properties: {
      messageId?: string;
      headers?: Record<string, unknown>;
      contentType?: string;
      mandatory?: boolean;
      /** The copy's own expiry (a jittered wait in a retry queue, which holds it at most its TTL). */
      expirationMs?: number;
    } = {},
  ): Promise<void> {
    const attributes = {
      'messaging.system': 'rabbitmq',
      'messaging.operation.type': 'send',
      'messaging.destination.name': exchange || '(default)',
      'messaging.rabbitmq.destination.routing_key': routingKey,
    };
    await inSpan(`${routingKey} publish`, { kind: SpanKind.PRODUCER, attributes }, async () => {
      const headers = { ...properties.headers };
      injectTraceContext(headers);
      const mandatory = properties.mandatory === true;
      const correlationId = mandatory ? randomUUID() : undefined;
      await this.channel.publish(exchange, routingKey, body, {
        persistent: true,
        contentType: properties.contentType ?? 'application/json',
        messageId: properties.messageId,
        headers,
        timestamp: Math.floor(Date.now() / 1000),
        // The broker refuses a user_id other than the connection's, so consumers can trust it.
        userId: this.user,
        ...(mandatory ? { mandatory, correlationId } : {}),
        ...(properties.expirationMs !== undefined ? { expiration: String(properties.expirationMs) } : {}),
      });
      if (correlationId && this.returned.delete(correlationId)) {
        throw new Error(
          `no queue bound to ${exchange} for ${routingKey}: the broker returned the message unroutable`,
        );
      }
    });
  }

  async close(): Promise<void> {
    await this.channel.close();
  }
}
