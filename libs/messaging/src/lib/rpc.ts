import { randomUUID } from 'node:crypto';
import type { ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ConsumeMessage } from 'amqplib';
import { Exchange, type EventEnvelope, validateMessage } from '@connector/contracts';
import { injectTraceContext, inSpan, SpanKind } from '@connector/observability';
import { withCorrelation } from './message-observer';
import { BROKER_SERVICES, SERVICE_CONSUMES } from './broker-permissions';
import { BrokerUsers } from './publisher-check';
import type { RabbitConnection } from './rabbitmq.connection';
import { replyQueueName, replyQueuePattern } from './topology';

/** What a request handler's answer looks like on the wire. */
export type RpcReply<T = unknown> =
  | { ok: true; data: T }
  /** `retryAfterMs` with code BUSY: the service had no slot for the request; ask again after that long. */
  | { ok: false; error: { code: string; message: string; retryAfterMs?: number } };

const REPLY_QUEUE = new RegExp(`^(${BROKER_SERVICES.map(replyQueuePattern).join('|')})$`);

/**
 * Whether a delivered request's `replyTo` is one of our services' reply queues: a request is answered only
 * there (through `connector.replies`, whose broker permissions allow exactly those names), never into a
 * queue the sender names.
 */
export function isReplyQueue(replyTo: unknown): replyTo is string {
  return typeof replyTo === 'string' && REPLY_QUEUE.test(replyTo);
}

/**
 * The service answered with an error, or nobody answered in time. `code` says which; `retryAfterMs` (with
 * BUSY) when to ask again, so a caller can wait without holding anything.
 */
export class RpcError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/**
 * Request-reply over RabbitMQ: a request is a contract message on `connector.internal` with `replyTo`, the
 * requester's own reply address `<service>.reply.<uuid>` (the routing key its reply queue, exclusive to its
 * connection, is bound to `connector.replies` with); the answering service's handler returns the reply,
 * which it publishes to `connector.replies` under that address.
 * Nobody needs the default exchange, which reaches every queue. Requests expire with their timeout, so a
 * service that comes back late never works on a question nobody waits for any more; an expired one the
 * broker dead-letters is dropped unread by the failure log (REQUEST_TYPES).
 */
export class RpcClient {
  private readonly pending = new Map<
    string,
    { resolve: (reply: RpcReply) => void; timer: NodeJS.Timeout; answerers: ReadonlySet<string> }
  >();
  /** Opened at the first request: a service that never asks needs no reply queue (nor the permission). */
  private channel?: ChannelWrapper;
  private readonly user: string;
  private readonly replyQueue: string;
  private closed = false;

  /**
   * `requester`: the service asking, one of BROKER_SERVICES, or no service may answer into its queue.
   * `users`: who our services are on the broker (RABBITMQ_USERS); by default all are this connection's user
   * (local mode), so a reply is believed only from the user of the service that takes the request type.
   */
  constructor(
    private readonly connection: RabbitConnection,
    requester: string,
    private readonly users: BrokerUsers = BrokerUsers.parse('', connection.user),
  ) {
    this.user = connection.user;
    this.replyQueue = replyQueueName(requester);
  }

  private channelForRequests(): ChannelWrapper {
    this.channel ??= this.connection.createChannel({
      name: 'rpc-client',
      json: false,
      confirm: false,
      setup: async (channel: Channel) => {
        await this.connection.waitForExchanges();
        channel.on('return', (message: ConsumeMessage) =>
          this.settle(String(message.properties.correlationId), {
            ok: false,
            error: { code: 'NO_RESPONDER', message: `no service takes ${message.fields.routingKey}` },
          }),
        );
        await this.consumeReplies(channel);
      },
    });
    return this.channel;
  }

  /**
   * A server-named queue (`amq.gen-*`: no client may declare an exchange of such a name, so its user's right
   * to declare and read it opens no way around the topic permissions), bound to `connector.replies` under
   * the reply address. Exclusive: gone with the connection; declared again after a reconnect, and at once
   * when the broker cancels its consumer (the queue was deleted). Missing meanwhile, `/health` says not ready.
   */
  private async consumeReplies(channel: Channel): Promise<void> {
    const name = this.replyQueue;
    this.connection.consumerDown(name, 'declaring it');
    channel.once('close', () => {
      if (!this.closed) this.connection.consumerDown(name, 'its channel closed');
    });
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
    await channel.bindQueue(queue, Exchange.Replies, name);
    await channel.consume(
      queue,
      (message) => {
        if (message) return this.onReply(message);
        this.consumeReplies(channel).catch((error: unknown) =>
          this.connection.consumerDown(name, `could not consume again: ${String(error)}`),
        );
      },
      { noAck: true },
    );
    this.connection.consumerUp(name);
  }

  /** Asks and waits for the answer; asked while a message is handled, it carries its correlation id. */
  async request<T>(request: EventEnvelope, timeoutMs = 10_000): Promise<T> {
    const envelope = withCorrelation(request);
    return inSpan(`${envelope.type} request`, { kind: SpanKind.CLIENT }, () =>
      this.send<T>(envelope, timeoutMs),
    );
  }

  private async send<T>(envelope: EventEnvelope, timeoutMs: number): Promise<T> {
    const body = Buffer.from(JSON.stringify(envelope));
    const validation = validateMessage(body, envelope.type);
    if (!validation.ok) throw new RpcError('INVALID_REQUEST', validation.errors.join('; '));
    if (!isReplyQueue(this.replyQueue)) {
      throw new RpcError(
        'NO_REPLY_QUEUE',
        `${this.replyQueue} is no reply queue of our services: none answers into it`,
      );
    }
    const correlationId = randomUUID();
    const reply = new Promise<RpcReply>((resolve) => {
      const timer = setTimeout(
        () =>
          this.settle(correlationId, {
            ok: false,
            error: { code: 'TIMEOUT', message: `no answer to ${envelope.type} within ${timeoutMs} ms` },
          }),
        timeoutMs,
      );
      this.pending.set(correlationId, { resolve, timer, answerers: answerersOf(envelope.type, this.users) });
    });
    const headers: Record<string, unknown> = {};
    injectTraceContext(headers);
    try {
      await this.channelForRequests().publish(Exchange.Internal, envelope.type, body, {
        headers,
        replyTo: this.replyQueue,
        correlationId,
        messageId: envelope.id,
        contentType: 'application/json',
        expiration: String(timeoutMs),
        userId: this.user, // validated by the broker: the answering service knows who asks
        mandatory: true,
        timeout: timeoutMs,
      });
    } catch (error) {
      this.settle(correlationId, {
        ok: false,
        error: { code: 'UNAVAILABLE', message: (error as Error).message },
      });
    }
    const answer = await reply;
    if (!answer.ok) {
      const { retryAfterMs } = answer.error;
      throw new RpcError(
        answer.error.code,
        answer.error.message,
        typeof retryAfterMs === 'number' && retryAfterMs >= 0 ? retryAfterMs : undefined,
      );
    }
    return answer.data as T;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.connection.consumerGone(this.replyQueue);
    for (const id of [...this.pending.keys()]) {
      this.settle(id, { ok: false, error: { code: 'UNAVAILABLE', message: 'client closed' } });
    }
    await this.channel?.close();
  }

  private onReply(message: ConsumeMessage): void {
    const correlationId = String(message.properties.correlationId);
    // Anyone who can write connector.replies with our queue's name could answer; only the broker-validated
    // user_id of the service that takes the request is believed. Another's reply is dropped: we time out.
    const answerers = this.pending.get(correlationId)?.answerers;
    if (!answerers || !answerers.has(String(message.properties.userId ?? ''))) return;
    try {
      this.settle(correlationId, JSON.parse(message.content.toString()) as RpcReply);
    } catch {
      /* a reply that is not JSON answers nobody; its requester times out */
    }
  }

  private settle(correlationId: string, reply: RpcReply): void {
    const entry = this.pending.get(correlationId);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.pending.delete(correlationId);
    entry.resolve(reply);
  }
}

/** The broker users of the services that answer `type` (those whose queue takes it). */
function answerersOf(type: string, users: BrokerUsers): ReadonlySet<string> {
  return new Set(
    BROKER_SERVICES.filter((service) =>
      (SERVICE_CONSUMES[service].types as readonly string[]).includes(type),
    ).map((service) => users.of(service)),
  );
}
