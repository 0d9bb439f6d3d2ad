import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ConsumeMessage } from 'amqplib';
import {
  createEvent,
  type EventEnvelope,
  Header,
  MAX_MESSAGE_BYTES,
  type OperationFailedDto,
  REQUEST_TYPES,
  RoutingKey,
} from '@connector/contracts';
import type { MessagePublisher } from './message-publisher';
import type { RabbitConnection } from './rabbitmq.connection';
import { describeError } from './retry-policy';
import { deadLetterQueueName, queueExchangeName } from './topology';

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
  private readonly logger = new Logger(DeadLetterCollector.name);
  private channel?: ChannelWrapper;

  /**
   * `report`, when given, publishes `operation.failed` for a dead letter nobody reported, once `keep` stored
   * it: best-effort, a report that fails is logged and the dead letter is acknowledged all the same.
   */
  constructor(
    private readonly connection: RabbitConnection,
    private readonly queues: string[],
    private readonly keep: (deadLetter: DeadLetter) => Promise<void>,
    private readonly report?: (event: EventEnvelope<string, OperationFailedDto>) => Promise<void>,
    /** Whether a dead letter of `queue` sent by broker user `userId` is ours to believe (deadLetterWriters). */
    private readonly believe: (queue: string, userId: unknown) => boolean = () => true,
  ) {}

  start(): void {
    this.channel = this.connection.createChannel({
      name: 'dead-letter-collector',
      json: false,
      setup: async (channel: Channel) => {
        await channel.prefetch(20);
        const deadQueues = this.queues.map((queue) => `${queue}${DEAD_SUFFIX}`);
        if (this.connection.declaredBySetUp) {
          await this.connection.waitForQueues(deadQueues, (missing) =>
            this.logger.warn(`waiting for the broker set-up to declare ${missing.join(', ')}`),
          );
        }
        for (const [index, queue] of this.queues.entries()) {
          const dead = deadQueues[index];
          if (!this.connection.declaredBySetUp) {
            await channel.assertQueue(dead, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
          }
          await channel.consume(dead, (message) => message && void this.collect(channel, queue, message));
        }
      },
    });
  }

  async close(): Promise<void> {
    await this.channel?.close();
  }

  private async collect(channel: Channel, queue: string, message: ConsumeMessage): Promise<void> {
    let deadLetter: DeadLetter;
    try {
      deadLetter = readDeadLetter(queue, message, this.believe(queue, message.properties.userId));
    } catch (error) {
      // Whatever its headers hold, it is kept (as bytes, with why it could not be read), never bounced forever.
      deadLetter = unreadableDeadLetter(queue, message, error);
    }
    if (isRequestDeadLetter(message, deadLetter)) {
      // An expired request: its requester has given up, and its body may hold a secret. Dropped unread.
      this.logger.warn(
        `dropped request ${deadLetter.type ?? deadLetter.routingKey} ${deadLetter.messageId ?? ''} ` +
          `dead-lettered from ${queue}: requests are never kept`,
      );
      try {
        channel.ack(message);
      } catch {
        /* channel closed: the broker redelivers */
      }
      return;
    }
    try {
      await this.keep(deadLetter);
    } catch (error) {
      // Not kept: give it back to its queue after a pause, it is tried again.
      this.logger.error(`could not keep dead letter of ${queue}, requeueing: ${describeError(error)}`);
      setTimeout(() => {
        try {
          channel.nack(message, false, true);
        } catch {
          /* channel closed: the broker redelivers */
        }
      }, 1_000);
      return;
    }
    if (!deadLetter.reported && this.report) {
      try {
        await this.report(operationFailedOf(deadLetter));
      } catch (error) {
        this.logger.error(
          `dead letter ${deadLetter.messageId ?? ''} of ${queue} kept, but not reported: ${describeError(error)}`,
        );
      }
    }
    try {
      channel.ack(message);
    } catch {
      /* channel closed: the broker redelivers */
    }
  }
}

/**
 * A request (REQUEST_TYPES) by any of the keys or the type it shows. A reply address makes none: an event that
 * names one was handled as the event, and its dead letter is kept like any other.
 */
function isRequestDeadLetter(message: ConsumeMessage, deadLetter: DeadLetter): boolean {
  const headers = (message.properties.headers ?? {}) as Record<string, unknown>;
  const deaths = Array.isArray(headers['x-death'])
    ? (headers['x-death'] as Array<Record<string, unknown>>)
    : [];
  const keys: unknown[] = [
    deadLetter.routingKey,
    deadLetter.type,
    message.fields.routingKey,
    headers[Header.OriginalRoutingKey],
    ...deaths.flatMap((death) => (Array.isArray(death['routing-keys']) ? death['routing-keys'] : [])),
  ];
  return keys.some((key) => typeof key === 'string' && REQUEST_TYPES.has(key));
}

function unreadableDeadLetter(queue: string, message: ConsumeMessage, error: unknown): DeadLetter {
  return {
    queue,
    routingKey: message.fields.routingKey,
    messageId: text(message.properties.messageId),
    body: message.content,
    reasons: [`dead letter could not be read: ${describeError(error)}`],
    retryable: false,
    failedAt: new Date(),
    headers: {},
    reported: false,
  };
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

/**
 * A dead letter as its headers describe it when `believed` (written by its queue's service or the registry:
 * deadLetterWriters), else only as the broker vouches: the sender its `user_id`, the routing key and the
 * reason from `x-death` (anything written straight into `<queue>.dead` by anyone else is not retryable).
 */
export function readDeadLetter(queue: string, message: ConsumeMessage, believed = true): DeadLetter {
  const sender = text(message.properties.userId);
  const headers = (message.properties.headers ?? {}) as Record<string, unknown>;
  if (!believed) return unvouchedDeadLetter(queue, message, headers, sender);
  const stamped: unknown = headers[Header.PublishedBy];
  const envelope = envelopeOf(message.content);
  const byBroker = headers[Header.DeadLetterReasons] === undefined ? brokerDeath(headers) : undefined;
  const failedAt = byBroker?.at ?? new Date(text(headers[Header.FailedAt]) ?? Date.now());
  return {
    queue,
    routingKey: text(headers[Header.OriginalRoutingKey]) ?? byBroker?.routingKey ?? message.fields.routingKey,
    messageId: text(message.properties.messageId) ?? text(envelope.id),
    body: message.content,
    reasons: byBroker ? [byBroker.reason] : reasonsOf(headers[Header.DeadLetterReasons]),
    retryable: byBroker ? true : headers[Header.Retryable] === true,
    // A date Postgres refuses would bounce the dead letter forever.
    failedAt: Number.isNaN(failedAt.getTime()) ? new Date() : failedAt,
    accountId: text(envelope.accountId),
    connectorId: text(headers[Header.ConnectorId]) ?? text(envelope.data?.connectorId),
    type: text(envelope.type),
    candidateId: text(envelope.data?.candidateId),
    // Our copies carry the first publisher (an empty one: the original had no user_id); one without it
    // predates the record, its publisher unknown; an original the broker dead-lettered is its sender's.
    publishedBy: typeof stamped === 'string' ? stamped : byBroker ? sender : undefined,
    headers,
    reported: !byBroker,
  };
}

function unvouchedDeadLetter(
  queue: string,
  message: ConsumeMessage,
  headers: Record<string, unknown>,
  sender: string | undefined,
): DeadLetter {
  const envelope = envelopeOf(message.content);
  const byBroker = brokerDeath(headers);
  const who = sender ? `broker user "${sender}"` : 'a publisher without user_id';
  return {
    queue,
    routingKey: byBroker?.routingKey ?? message.fields.routingKey,
    messageId: text(message.properties.messageId) ?? text(envelope.id),
    body: message.content,
    reasons: byBroker
      ? [byBroker.reason]
      : [`written straight into ${deadLetterQueueName(queue)} by ${who}, not dead-lettered by its service`],
    retryable: byBroker !== undefined,
    failedAt: byBroker?.at && !Number.isNaN(byBroker.at.getTime()) ? byBroker.at : new Date(),
    accountId: text(envelope.accountId),
    connectorId: text(envelope.data?.connectorId),
    type: text(envelope.type),
    candidateId: text(envelope.data?.candidateId),
    // Its own user, whatever its headers claim: a replay is checked against it.
    publishedBy: sender,
    headers,
    reported: false,
  };
}

type LooseEnvelope = {
  id?: unknown;
  accountId?: unknown;
  type?: unknown;
  data?: { connectorId?: unknown; candidateId?: unknown };
};

function envelopeOf(body: Buffer): LooseEnvelope {
  if (body.length > MAX_MESSAGE_BYTES) return {}; // never parsed, as its consumer did not
  try {
    const parsed: unknown = JSON.parse(body.toString());
    return typeof parsed === 'object' && parsed !== null ? (parsed as LooseEnvelope) : {};
  } catch {
    return {}; // not JSON: it is kept as bytes
  }
}

/** `x-dead-letter-reasons`: a JSON list of strings as the transport writes it; anything else, as text. */
function reasonsOf(header: unknown): string[] {
  if (header === undefined) return [];
  const raw = text(header) ?? (Buffer.isBuffer(header) ? header.toString('utf8') : undefined);
  if (raw === undefined) return [describeError(header)];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.map((reason) => describeError(reason)) : [describeError(parsed)];
  } catch {
    return [raw];
  }
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
      ? `redelivered more often than the delivery limit of ${describeError(death['queue'])} allows, never settled: ` +
        'its handler crashed or stopped the consumer each time'
      : `dead-lettered by the broker from ${describeError(death['queue'])}: ${describeError(death['reason'])}`;
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
  return failureReport({
    accountId: deadLetter.accountId,
    correlationId,
    connectorId: deadLetter.connectorId,
    sourceEventId: deadLetter.messageId,
    sourceType: deadLetter.type ?? deadLetter.routingKey,
    reasons: deadLetter.reasons,
    retryable: deadLetter.retryable,
  });
}

/** What a failure report says, as read from the failed message: anything, since its publisher chose it. */
export interface FailureFacts {
  accountId?: unknown;
  correlationId?: unknown;
  connectorId?: unknown;
  sourceEventId?: unknown;
  sourceType?: unknown;
  reasons: readonly unknown[];
  retryable: boolean;
}

/** The contract's limits (EnvelopeDto), and a bound on what else a report copies from the message. */
const MAX_ACCOUNT_ID = 100;
const MAX_CORRELATION_ID = 200;
const MAX_ID = 200;
const MAX_REASON = 2_000;
const MAX_REASONS = 50;

/**
 * `operation.failed` about a failed message, valid whatever that message held: an account id the contract
 * refuses becomes 'unknown' (never cut short, which could name another account), a correlation id it
 * refuses gives way to the failed message's id, other texts are shortened and an empty one is 'unknown'.
 */
export function failureReport(facts: FailureFacts): EventEnvelope<string, OperationFailedDto> {
  const within = (value: unknown, max: number) =>
    typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined;
  const shortened = (value: unknown, max: number) =>
    typeof value === 'string' && value.length > 0 ? value.slice(0, max) : undefined;
  const sourceEventId = shortened(facts.sourceEventId, MAX_ID) ?? 'unknown';
  const connectorId = within(facts.connectorId, MAX_ID);
  const errors = facts.reasons
    .slice(0, MAX_REASONS)
    .map((reason) => shortened(describeError(reason), MAX_REASON))
    .filter((reason): reason is string => reason !== undefined);
  return createEvent(
    RoutingKey.OperationFailed,
    within(facts.accountId, MAX_ACCOUNT_ID) ?? 'unknown',
    {
      ...(connectorId ? { connectorId } : {}),
      sourceEventId,
      sourceType: shortened(facts.sourceType, MAX_ID) ?? 'unknown',
      reason: errors[0] ?? 'unknown',
      retryable: facts.retryable === true,
      errors,
    },
    { correlationId: within(facts.correlationId, MAX_CORRELATION_ID) ?? sourceEventId },
  );
}

/**
 * Sends a dead letter back to the queue it failed in (through that queue's own exchange, which only its
 * service and the registry may write), as a first attempt, marked as a replay. The consumer handles it like
 * any message (its idempotency makes a replay of something that did land harmless), and checks it against
 * its original publisher, not the registry that replays it.
 */
export async function replayDeadLetter(
  publisher: MessagePublisher,
  deadLetter: Pick<DeadLetter, 'queue' | 'routingKey' | 'messageId' | 'body' | 'publishedBy'>,
  replayId: string,
): Promise<void> {
  await publisher.publishRaw(queueExchangeName(deadLetter.queue), deadLetter.queue, deadLetter.body, {
    mandatory: true,
    messageId: deadLetter.messageId,
    headers: {
      [Header.OriginalRoutingKey]: deadLetter.routingKey,
      [Header.ReplayOf]: replayId,
      ...(deadLetter.publishedBy !== undefined ? { [Header.PublishedBy]: deadLetter.publishedBy } : {}),
    },
  });
}

/** How much of a body over MAX_MESSAGE_BYTES a dead letter keeps: its start, to recognise it by. */
const KEPT_OF_TOO_LARGE = 64 * 1024;

/** A body over MAX_MESSAGE_BYTES cut to its start, with the whole one's size and SHA-256; else undefined. */
export function tooLargeCut(content: Buffer): { body: Buffer; bytes: number; sha256: string } | undefined {
  if (content.length <= MAX_MESSAGE_BYTES) return undefined;
  return {
    body: content.subarray(0, KEPT_OF_TOO_LARGE),
    bytes: content.length,
    sha256: createHash('sha256').update(content).digest('hex'),
  };
}
