import { randomUUID } from 'node:crypto';
import type { ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ConsumeMessage } from 'amqplib';
import { Exchange, type EventEnvelope, validateMessage } from '@connector/contracts';
import { injectTraceContext, inSpan, SpanKind } from '@connector/observability';
import { withCorrelation } from './message-observer';
import type { RabbitConnection } from './rabbitmq.connection';
import { declareExchanges } from './topology';

/** What a request handler's answer looks like on the wire. */
export type RpcReply<T = unknown> =
  { ok: true; data: T } | { ok: false; error: { code: string; message: string } };

const DIRECT_REPLY_TO = 'amq.rabbitmq.reply-to';

/** Whether a delivered request's `replyTo` is a direct reply-to address (the broker rewrites it per requester). */
export function isDirectReplyTo(replyTo: unknown): boolean {
  return typeof replyTo === 'string' && replyTo.startsWith(`${DIRECT_REPLY_TO}.`);
}

/** The service answered with an error, or nobody answered in time. `code` says which. */
export class RpcError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/**
 * Request-reply over RabbitMQ's direct reply-to: a request is a contract message on `connector.internal`
 * with `replyTo`; the answering service's handler returns the reply. Requests expire with their timeout,
 * so a service that comes back late never works on a question nobody waits for any more; an expired one the
 * broker dead-letters is dropped unread by the failure log (REQUEST_TYPES).
 */
export class RpcClient {
  private readonly pending = new Map<string, { resolve: (reply: RpcReply) => void; timer: NodeJS.Timeout }>();
  private readonly channel: ChannelWrapper;
  private readonly user: string;

  constructor(connection: RabbitConnection) {
    this.user = connection.user;
    this.channel = connection.createChannel({
      name: 'rpc-client',
      json: false,
      confirm: false,
      setup: async (channel: Channel) => {
        await declareExchanges(channel);
        channel.on('return', (message: ConsumeMessage) =>
          this.settle(String(message.properties.correlationId), {
            ok: false,
            error: { code: 'NO_RESPONDER', message: `no service takes ${message.fields.routingKey}` },
          }),
        );
        await channel.consume(DIRECT_REPLY_TO, (message) => message && this.onReply(message), {
          noAck: true,
        });
      },
    });
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
      this.pending.set(correlationId, { resolve, timer });
    });
    const headers: Record<string, unknown> = {};
    injectTraceContext(headers);
    try {
      await this.channel.publish(Exchange.Internal, envelope.type, body, {
        headers,
        replyTo: DIRECT_REPLY_TO,
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
    if (!answer.ok) throw new RpcError(answer.error.code, answer.error.message);
    return answer.data as T;
  }

  async close(): Promise<void> {
    for (const id of [...this.pending.keys()]) {
      this.settle(id, { ok: false, error: { code: 'UNAVAILABLE', message: 'client closed' } });
    }
    await this.channel.close();
  }

  private onReply(message: ConsumeMessage): void {
    try {
      this.settle(
        String(message.properties.correlationId),
        JSON.parse(message.content.toString()) as RpcReply,
      );
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
