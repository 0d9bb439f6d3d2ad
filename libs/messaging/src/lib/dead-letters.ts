import type { ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ConsumeMessage } from 'amqplib';
import { Header } from '@connector/contracts';
import type { MessagePublisher } from './message-publisher';
import type { RabbitConnection } from './rabbitmq.connection';

/** A dead-lettered message as an operator sees it. */
export interface DeadLetter {
  /** The queue it was dead-lettered from (whose consumer gave up on it). */
  queue: string;
  routingKey: string;
  messageId?: string;
  body: Buffer;
  reasons: string[];
  retryable: boolean;
  failedAt: Date;
  /** From the body when it is a JSON envelope, or from the failure. */
  accountId?: string;
  connectorId?: string;
  type?: string;
  headers: Record<string, unknown>;
}

const DEAD_SUFFIX = '.dead';

/**
 * Moves dead letters out of the `<queue>.dead` queues into whatever keeps them for operators (the
 * registry's failure log): each is acknowledged only after `keep` stored it, so none is lost on the way.
 */
export class DeadLetterCollector {
  private channel?: ChannelWrapper;

  constructor(
    private readonly connection: RabbitConnection,
    private readonly queues: string[],
    private readonly keep: (deadLetter: DeadLetter) => Promise<void>,
  ) {}

  start(): void {
    this.channel = this.connection.createChannel({
      name: 'dead-letter-collector',
      json: false,
      setup: async (channel: Channel) => {
        await channel.prefetch(20);
        for (const queue of this.queues) {
          const dead = `${queue}${DEAD_SUFFIX}`;
          await channel.assertQueue(dead, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
          await channel.consume(dead, (message) => message && void this.collect(channel, queue, message));
        }
      },
    });
  }

  async close(): Promise<void> {
    await this.channel?.close();
  }

  private async collect(channel: Channel, queue: string, message: ConsumeMessage): Promise<void> {
    try {
      await this.keep(readDeadLetter(queue, message));
      channel.ack(message);
    } catch {
      // Not kept: give it back to its queue after a pause, it is tried again.
      setTimeout(() => {
        try {
          channel.nack(message, false, true);
        } catch {
          /* channel closed: the broker redelivers */
        }
      }, 1_000);
    }
  }
}

export function readDeadLetter(queue: string, message: ConsumeMessage): DeadLetter {
  const headers = (message.properties.headers ?? {}) as Record<string, unknown>;
  let envelope: { id?: unknown; accountId?: unknown; type?: unknown; data?: { connectorId?: unknown } } = {};
  try {
    envelope = JSON.parse(message.content.toString()) as typeof envelope;
  } catch {
    /* not JSON: it is kept as bytes */
  }
  const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
  let reasons: string[] = [];
  try {
    reasons = JSON.parse(String(headers[Header.DeadLetterReasons] ?? '[]')) as string[];
  } catch {
    reasons = [String(headers[Header.DeadLetterReasons])];
  }
  return {
    queue,
    routingKey: String(headers[Header.OriginalRoutingKey] ?? message.fields.routingKey),
    messageId: text(message.properties.messageId) ?? text(envelope?.id),
    body: message.content,
    reasons,
    retryable: headers[Header.Retryable] === true,
    failedAt: new Date(String(headers[Header.FailedAt] ?? new Date().toISOString())),
    accountId: text(envelope?.accountId),
    connectorId: text(headers[Header.ConnectorId]) ?? text(envelope?.data?.connectorId),
    type: text(envelope?.type),
    headers,
  };
}

/**
 * Sends a dead letter back to the queue it failed in, as a first attempt, marked as a replay. The consumer
 * handles it like any message (its idempotency makes a replay of something that did land harmless).
 */
export async function replayDeadLetter(
  publisher: MessagePublisher,
  deadLetter: Pick<DeadLetter, 'queue' | 'routingKey' | 'messageId' | 'body'>,
  replayId: string,
): Promise<void> {
  await publisher.publishRaw('', deadLetter.queue, deadLetter.body, {
    messageId: deadLetter.messageId,
    headers: { [Header.OriginalRoutingKey]: deadLetter.routingKey, [Header.ReplayOf]: replayId },
  });
}
