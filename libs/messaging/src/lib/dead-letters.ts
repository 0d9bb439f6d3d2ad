import type { ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ConsumeMessage } from 'amqplib';
import {
  createEvent,
  type EventEnvelope,
  Header,
  type OperationFailedDto,
  RoutingKey,
} from '@connector/contracts';
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
  /** The candidate the message is about (`data.candidateId`), so an erasure finds it. */
  candidateId?: string;
  /** The broker user that published it, as its consumer verified it (kept so a replay keeps it too). */
  publishedBy?: string;
  headers: Record<string, unknown>;
  /**
   * Whether `operation.failed` went out for it: the transport reports what it dead-letters; the broker,
   * dead-lettering at the delivery limit, does not (whoever keeps the dead letter reports it).
   */
  reported: boolean;
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
  let envelope: {
    id?: unknown;
    accountId?: unknown;
    type?: unknown;
    data?: { connectorId?: unknown; candidateId?: unknown };
  } = {};
  try {
    envelope = JSON.parse(message.content.toString()) as typeof envelope;
  } catch {
    /* not JSON: it is kept as bytes */
  }
  const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
  const byBroker = headers[Header.DeadLetterReasons] === undefined ? brokerDeath(headers) : undefined;
  let reasons: string[] = [];
  try {
    reasons = JSON.parse(String(headers[Header.DeadLetterReasons] ?? '[]')) as string[];
  } catch {
    reasons = [String(headers[Header.DeadLetterReasons])];
  }
  return {
    queue,
    routingKey: String(
      headers[Header.OriginalRoutingKey] ?? byBroker?.routingKey ?? message.fields.routingKey,
    ),
    messageId: text(message.properties.messageId) ?? text(envelope?.id),
    body: message.content,
    reasons: byBroker ? [byBroker.reason] : reasons,
    retryable: byBroker ? true : headers[Header.Retryable] === true,
    failedAt: byBroker?.at ?? new Date(String(headers[Header.FailedAt] ?? new Date().toISOString())),
    accountId: text(envelope?.accountId),
    connectorId: text(headers[Header.ConnectorId]) ?? text(envelope?.data?.connectorId),
    type: text(envelope?.type),
    candidateId: text(envelope?.data?.candidateId),
    publishedBy:
      typeof headers[Header.PublishedBy] === 'string' ? String(headers[Header.PublishedBy]) : undefined,
    headers,
    reported: !byBroker,
  };
}

/** What the broker's own dead-lettering (`x-death`, newest first) says: why, when, and from which key. */
function brokerDeath(
  headers: Record<string, unknown>,
): { reason: string; at?: Date; routingKey?: string } | undefined {
  const deaths = headers['x-death'];
  const [death] = Array.isArray(deaths) ? (deaths as Array<Record<string, unknown>>) : [];
  if (!death) return undefined;
  const keys = death['routing-keys'];
  const time = death['time'] as { value?: unknown } | number | Date | undefined;
  const seconds = typeof time === 'object' && time !== null && !(time instanceof Date) ? time.value : time;
  const at =
    seconds instanceof Date ? seconds : typeof seconds === 'number' ? new Date(seconds * 1000) : undefined;
  const reason =
    death['reason'] === 'delivery_limit'
      ? `redelivered more often than the delivery limit of ${String(death['queue'])} allows, never settled: ` +
        'its handler crashed or stopped the consumer each time'
      : `dead-lettered by the broker from ${String(death['queue'])}: ${String(death['reason'])}`;
  return {
    reason,
    ...(at ? { at } : {}),
    ...(Array.isArray(keys) && typeof keys[0] === 'string' ? { routingKey: keys[0] } : {}),
  };
}

/** `operation.failed` for a dead letter nobody reported (`reported` false: the broker dead-lettered it). */
export function operationFailedOf(deadLetter: DeadLetter): EventEnvelope<string, OperationFailedDto> {
  let correlationId: unknown;
  try {
    correlationId = (JSON.parse(deadLetter.body.toString()) as { correlationId?: unknown }).correlationId;
  } catch {
    /* not JSON: the failure correlates with itself */
  }
  const sourceEventId = deadLetter.messageId ?? 'unknown';
  return createEvent(
    RoutingKey.OperationFailed,
    deadLetter.accountId ?? 'unknown',
    {
      ...(deadLetter.connectorId ? { connectorId: deadLetter.connectorId } : {}),
      sourceEventId,
      sourceType: deadLetter.type ?? deadLetter.routingKey,
      reason: deadLetter.reasons[0] ?? 'unknown',
      retryable: deadLetter.retryable,
      errors: deadLetter.reasons,
    },
    { correlationId: typeof correlationId === 'string' ? correlationId : sourceEventId },
  );
}

/**
 * Sends a dead letter back to the queue it failed in, as a first attempt, marked as a replay. The consumer
 * handles it like any message (its idempotency makes a replay of something that did land harmless), and
 * checks it against its original publisher, not the registry that replays it.
 */
export async function replayDeadLetter(
  publisher: MessagePublisher,
  deadLetter: Pick<DeadLetter, 'queue' | 'routingKey' | 'messageId' | 'body' | 'publishedBy'>,
  replayId: string,
): Promise<void> {
  await publisher.publishRaw('', deadLetter.queue, deadLetter.body, {
    messageId: deadLetter.messageId,
    headers: {
      [Header.OriginalRoutingKey]: deadLetter.routingKey,
      [Header.ReplayOf]: replayId,
      ...(deadLetter.publishedBy !== undefined ? { [Header.PublishedBy]: deadLetter.publishedBy } : {}),
    },
  });
}
