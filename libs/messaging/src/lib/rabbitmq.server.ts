import { Logger } from '@nestjs/common';
import { type CustomTransportStrategy, type MessageHandler, Server } from '@nestjs/microservices';
import type { ChannelWrapper } from 'amqp-connection-manager';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import { lastValueFrom } from 'rxjs';
import {
  type EventEnvelope,
  Exchange,
  Header,
  MAX_MESSAGE_BYTES,
  REQUEST_TYPES,
  RoutingKey,
  validateMessage,
} from '@connector/contracts';
import { markSpanFailed } from '@connector/observability';
import { failureReport, tooLargeCut } from './dead-letters';
import { MessageHandlingError } from './message-errors';
import { LaneScheduler, SHARED_LANE } from './lane-scheduler';
import {
  inMessageScope,
  messageMetrics,
  noteEnvelope,
  routingKeyOf,
  watchSaturation,
} from './message-observer';
import type { MessagePublisher } from './message-publisher';
import type { PublisherCheck } from './publisher-check';
import { RabbitMqContext } from './rabbitmq.context';
import { MissingExchangesError, type RabbitConnection } from './rabbitmq.connection';
import {
  attemptNumber,
  decideOnFailure,
  DEFAULT_DEFERRAL_DELAYS_MS,
  DEFAULT_RETRY_DELAYS_MS,
  deferralCount,
  describeError,
  jittered,
  overflowDelay,
  retryTiersOf,
} from './retry-policy';
import { isReplyQueue, type RpcReply } from './rpc';
import { DEFAULT_HANDLER_TIMEOUT_MS, withTimeLimit } from './time-limit';
import {
  consumerDeclarations,
  type ConsumerTopology,
  deadLetterQueueName,
  declareConsumerTopology,
  deliveryLimitPolicyCommand,
  mainQueueArguments,
  queueExchangeName,
  retryQueueArguments,
  retryQueueName,
} from './topology';

export interface ConsumerOptions extends Omit<ConsumerTopology, 'retryDelaysMs'> {
  /**
   * Unacknowledged messages this process holds at once: the buffer its handler slots take from in turn by
   * key. Default: 4 × `concurrency`, or 10.
   */
  prefetch?: number;
  /** Handlers running at once. Default: the prefetch (every message delivered runs at once). */
  concurrency?: number;
  /** Handlers of one fairness key running at once. Default: `concurrency` (no cap). */
  perKeyConcurrency?: number;
  /** Messages of one key waiting for a slot; one more is deferred at once. Default: the prefetch (never). */
  perKeyBuffered?: number;
  /** The key handler slots are shared fairly by. Default: the envelope's `accountId`. */
  fairnessKey?: (envelope: EventEnvelope) => string | undefined;
  retryDelaysMs?: readonly number[];
  /** Extra, short wait tiers for deferrals only (DEFAULT_DEFERRAL_DELAYS_MS); attempts keep their ladder. */
  deferralDelaysMs?: readonly number[];
  /** Requests of a routing key handled at once; one more is answered BUSY at once. */
  requestConcurrency?: Readonly<Record<string, number>>;
  /** For request types `requestConcurrency` does not name. Default DEFAULT_REQUEST_CONCURRENCY. */
  defaultRequestConcurrency?: number;
  /** How long shutdown waits for in-flight handlers. */
  drainTimeoutMs?: number;
  /** A handler still running after this long fails (retried, then dead-lettered) and its signal aborts. */
  handlerTimeoutMs?: number;
  /** Refuses a message whose publisher may not send it: dead-lettered (or answered) with the reason, never handled. */
  verifyPublisher?: PublisherCheck;
  /** Drops the control headers of a message that is no copy of ours (outsideHeaderFilter), before all else. */
  dropOutsideHeaders?: (message: ConsumeMessage) => void;
}

type Envelope = { id?: unknown; type?: unknown; accountId?: unknown; correlationId?: unknown };

/** Requests of one type handled at once when the service names no limit for it. */
export const DEFAULT_REQUEST_CONCURRENCY = 16;

/** A BUSY answer asks to come back after about this long (jittered, so refused callers spread out). */
export const BUSY_RETRY_AFTER_MS = 500;

/**
 * The RabbitMQ transport for @nestjs/microservices. A handler is `@EventPattern(RoutingKey.X)` on a
 * controller and receives the validated envelope. The message is acknowledged only after the handler
 * succeeded; an invalid one is dead-lettered with its reasons at once; a failing one is retried through
 * delay queues and dead-lettered when attempts run out or the error is permanent. Every dead-letter is
 * reported as `operation.failed`.
 */
export class RabbitMqServer extends Server implements CustomTransportStrategy {
  protected override readonly logger = new Logger(RabbitMqServer.name);
  private readonly delaysMs: readonly number[];
  private readonly deferralDelaysMs: readonly number[];
  /** Every retry queue's delay (attempts' and deferrals'). */
  private readonly tiersMs: readonly number[];
  private readonly prefetch: number;
  private readonly concurrency: number;
  /** Handler slots for events, shared in turn by key; requests have their own (`requestsRunning`). */
  private readonly lanes: LaneScheduler;
  private readonly requestsRunning = new Map<string, number>();
  /** Set while listening: the saturation gauges read this consumer (a service without one reports none). */
  private unwatchSaturation?: () => void;
  private channel?: ChannelWrapper;
  /** Answers go out on a channel of their own: a refused answer closes it, never the consumer's. */
  private replyChannel?: ChannelWrapper;
  private consumer?: { channel: ConfirmChannel; tag: string };
  private closing = false;
  /** Listening succeeded: later set-up failures are recovery's, not start-up's. */
  private started = false;
  private inFlight = 0;
  private drained?: () => void;
  private warnedAboutLimit = false;
  private warnedAboutRetryQueues = false;
  /** The handler of each routing key met so far (registered before listen); unknown keys are not kept. */
  private readonly handlers = new Map<string, MessageHandler>();

  constructor(
    private readonly connection: RabbitConnection,
    private readonly publisher: MessagePublisher,
    private readonly options: ConsumerOptions,
  ) {
    super();
    this.delaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.deferralDelaysMs = options.deferralDelaysMs ?? DEFAULT_DEFERRAL_DELAYS_MS;
    this.tiersMs = retryTiersOf(options);
    this.prefetch = options.prefetch ?? (options.concurrency ? options.concurrency * 4 : 10);
    this.concurrency = options.concurrency ?? this.prefetch;
    this.lanes = new LaneScheduler({
      concurrency: this.concurrency,
      perKeyConcurrency: options.perKeyConcurrency ?? this.concurrency,
      perKeyBuffered: options.perKeyBuffered ?? this.prefetch,
    });
  }

  /** Nest's lookup tries to parse the pattern as JSON on every message (and fails, for a routing key). */
  override getHandlerByPattern(pattern: string): MessageHandler | null {
    const known = this.handlers.get(pattern);
    if (known) return known;
    const handler = super.getHandlerByPattern(pattern);
    if (handler) this.handlers.set(pattern, handler);
    return handler;
  }

  listen(callback: (error?: unknown) => void): void {
    this.unwatchSaturation = watchSaturation(this.options.queue, () => ({
      slots: this.concurrency,
      ...this.lanes.stats(),
      requests: [...this.requestsRunning].map(([routingKey, running]) => ({
        routingKey,
        running,
        slots: this.requestSlots(routingKey),
      })),
    }));
    this.connection.consumerDown(this.options.queue, 'starting');
    this.channel = this.openChannel();
    // Started once set up; or not, when the shared exchanges never came (the wait is bounded): said so.
    let answered = false;
    const answer = (error?: unknown) => {
      if (answered) return;
      answered = true;
      this.started = !error;
      this.channel?.off('error', onSetupError);
      callback(error);
    };
    const onSetupError = (error: unknown) => {
      if (error instanceof MissingExchangesError) answer(error);
    };
    this.channel.on('error', onSetupError);
    this.channel.waitForConnect().then(
      () => answer(),
      (error: unknown) => answer(error),
    );
  }

  private openChannel(): ChannelWrapper {
    const channel = this.connection.createChannel({
      name: `consumer:${this.options.queue}`,
      confirm: true,
      json: false,
      setup: (confirmChannel: ConfirmChannel) => this.setup(confirmChannel),
    });
    // Once started, shared exchanges gone for good leave nothing to consume from: the supervisor restarts us.
    channel.on('error', (error: unknown) => {
      if (this.started && error instanceof MissingExchangesError) this.connection.fail(error);
    });
    return channel;
  }

  /**
   * The consumer on `channel` is gone (queue deleted, channel closed): a new channel declares the topology
   * again and consumes. Until then `/health` is not ready; RabbitConnection gives up when it takes too long.
   */
  private lose(channel: ConfirmChannel, reason: string): void {
    if (this.closing || this.consumer?.channel !== channel) return;
    this.consumer = undefined;
    this.connection.consumerDown(this.options.queue, reason);
    this.logger.warn(`consumer of ${this.options.queue} lost (${reason}): declaring its topology again`);
    const old = this.channel;
    this.channel = this.openChannel();
    // Deliveries still running on the old channel settle into nothing: a closed channel's were given back
    // by the broker, a deleted queue's were dropped with it.
    void old?.close().catch(() => undefined);
  }

  /** Stops taking messages, lets in-flight handlers finish, then closes the channel. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.connection.consumerGone(this.options.queue);
    if (this.consumer) {
      await this.consumer.channel.cancel(this.consumer.tag).catch(() => undefined);
    }
    // Messages waiting for a slot were not started: they go back to the broker now; running ones finish.
    this.lanes.close();
    if (this.inFlight > 0) {
      const drainTimeoutMs = this.options.drainTimeoutMs ?? 30_000;
      await Promise.race([
        new Promise<void>((resolve) => (this.drained = resolve)),
        new Promise<void>((resolve) => setTimeout(resolve, drainTimeoutMs).unref()),
      ]);
    }
    await this.channel?.close();
    await this.replyChannel?.close();
    this.unwatchSaturation?.();
  }

  on(): never {
    throw new Error('RabbitMqServer does not emit transport events; use RabbitConnection');
  }

  unwrap<T>(): T {
    return this.connection as T;
  }

  private async setup(channel: ConfirmChannel): Promise<void> {
    await this.connection.waitForExchanges();
    if (this.connection.declaredBySetUp) await this.waitForTopology();
    else await this.declareTopology(channel);
    if (this.closing) return;
    await channel.prefetch(this.prefetch);
    channel.once('close', () => {
      closedChannels.add(channel);
      this.lose(channel, 'its channel closed');
    });
    const { consumerTag } = await channel.consume(this.options.queue, (message) => {
      // No message: the broker cancelled this consumer, e.g. its queue was deleted.
      if (!message) return this.lose(channel, 'the broker cancelled it (queue deleted?)');
      this.options.dropOutsideHeaders?.(message);
      void this.track(
        inMessageScope(this.options.queue, message, () => this.handleMessage(channel, message)),
      );
    });
    this.consumer = { channel, tag: consumerTag };
    this.connection.consumerUp(this.options.queue);
  }

  private topology(): ConsumerTopology {
    return { ...this.options, retryDelaysMs: this.tiersMs };
  }

  /**
   * A service with a broker user of its own may declare nothing (docs/security.md, "On the broker"): the
   * broker set-up declares its queues and bindings, and declares them again when they are lost (its keeper).
   * Until they all exist the consumer waits, not ready; RabbitConnection gives up when it takes too long.
   */
  private async waitForTopology(): Promise<void> {
    const names = consumerDeclarations(this.topology()).queues.map(({ name }) => name);
    await this.connection.waitForQueues(
      names,
      (missing) => {
        this.connection.consumerDown(
          this.options.queue,
          `waiting for the broker set-up to declare ${missing[0]}`,
        );
        this.logger.warn(
          `queues ${missing.join(', ')} do not exist: the broker set-up declares them (npm start, ` +
            '`broker-users --apply`, its keeper `broker-users --keep`, with the same RETRY_DELAYS_MS); waiting',
        );
      },
      () => !this.closing,
    );
  }

  /** Local mode (one broker user for every service, e.g. guest): the service declares its own topology. */
  private async declareTopology(channel: ConfirmChannel): Promise<void> {
    const withLimit = await this.connection.declaresQueueWith(
      this.options.queue,
      mainQueueArguments(this.options),
    );
    if (!withLimit && !this.warnedAboutLimit) {
      this.warnedAboutLimit = true;
      this.logger.warn(
        `queue ${this.options.queue} was declared by an earlier version, with other arguments (they never ` +
          'change); it keeps working as declared. Without a delivery limit, set one with: ' +
          `${deliveryLimitPolicyCommand(this.options)}; dead-lettering through the default exchange, it ` +
          `works as before, and moves to ${queueExchangeName(this.options.queue)} once re-created (README, ` +
          '"How a message is handled")',
      );
    }
    const olderRetryQueues: string[] = [];
    for (const delayMs of this.tiersMs) {
      const queue = retryQueueName(this.options.queue, delayMs);
      if (!(await this.connection.declaresQueueWith(queue, retryQueueArguments(this.options.queue, delayMs))))
        olderRetryQueues.push(queue);
    }
    if (olderRetryQueues.length > 0 && !this.warnedAboutRetryQueues) {
      this.warnedAboutRetryQueues = true;
      this.logger.warn(
        `retry queues ${olderRetryQueues.join(', ')} were declared by an earlier version (queue arguments never ` +
          'change): a broker restart may drop what waits in them; delete each once empty ' +
          '(rabbitmqctl delete_queue <name> --if-empty), and this service declares it again when it restarts',
      );
    }
    await declareConsumerTopology(channel, this.topology(), [
      ...(withLimit ? [] : [this.options.queue]),
      ...olderRetryQueues,
    ]);
  }

  private async track(work: Promise<void>): Promise<void> {
    this.inFlight += 1;
    try {
      await work;
    } catch (error) {
      this.logger.error(`message handling crashed: ${describeError(error)}`);
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0) this.drained?.();
    }
  }

  /**
   * Every message is settled, whatever happens: anything that throws before it was acknowledged, given
   * back or re-routed dead-letters it with the reason (a message left unsettled holds a prefetch slot until
   * the channel closes; enough of them stop the queue).
   */
  private async handleMessage(channel: ConfirmChannel, message: ConsumeMessage): Promise<void> {
    try {
      await this.handle(channel, message);
    } catch (error) {
      if (settledMessages.has(message)) {
        this.logger.error(`message handling crashed after settling: ${describeError(error)}`);
        return;
      }
      const routingKey = routingKeyOf(message);
      const reason = `message handling crashed: ${describeError(error)}`;
      if (REQUEST_TYPES.has(routingKey)) {
        // A request is never dead-lettered: it may carry a secret, and its requester has its own timeout.
        this.logger.error(`${reason} (request ${routingKey}), dropped`);
        ack(channel, message);
        return;
      }
      this.logger.error(`${reason} (${routingKey}), dead-lettering it`);
      markSpanFailed(error);
      const settled = await this.settle(channel, message, () =>
        this.deadLetter(message, routingKey, [reason], false, undefined),
      );
      if (settled) messageMetrics.deadLettered(this.options.queue, routingKey, 'permanent');
    }
  }

  private async handle(channel: ConfirmChannel, message: ConsumeMessage): Promise<void> {
    const routingKey = routingKeyOf(message);
    // First: the publisher it records in the headers travels with retry and dead-letter copies.
    const refusal = this.options.verifyPublisher?.(message, routingKey);
    const headers = message.properties.headers ?? {};
    const attempt = attemptNumber(headers[Header.Attempt]);

    // Measured before anything parses it: a 100 MiB body would be parsed whole, times the prefetch.
    const tooLarge = message.content.length > MAX_MESSAGE_BYTES;
    const validation: ReturnType<typeof validateMessage> = tooLarge
      ? {
          ok: false,
          errors: [
            `message too large: ${message.content.length} bytes, more than the ${MAX_MESSAGE_BYTES} a message may have`,
          ],
        }
      : validateMessage(message.content, routingKey);
    noteEnvelope(validation.message);
    // A request is its type, not its `replyTo`: an event that names a reply address is handled as the event.
    if (REQUEST_TYPES.has(routingKey)) {
      // Never retried nor dead-lettered: taken at once, so it holds no prefetch slot while it runs.
      ack(channel, message);
      if (isReplyQueue(message.properties.replyTo)) {
        await this.answer(message, message.properties.replyTo, routingKey, validation, refusal);
      } else {
        // Answering into a queue the sender names would let it write into any queue (a dead-letter one too).
        this.logger.warn(
          `dropped ${routingKey} ${String(message.properties.messageId ?? '')}: a request is answered only ` +
            "into one of our services' reply queues, and never kept",
        );
        messageMetrics.requestFailed(this.options.queue, routingKey, 'NO_REPLY_TO', 0);
      }
      return;
    }
    if (refusal) {
      await this.settle(channel, message, () =>
        this.deadLetter(message, routingKey, [refusal], false, asEnvelope(validation.message)),
      );
      return;
    }
    if (!validation.ok) {
      const settled = await this.settle(channel, message, () =>
        this.deadLetter(message, routingKey, validation.errors, false, asEnvelope(validation.message)),
      );
      if (settled) messageMetrics.deadLettered(this.options.queue, routingKey, 'invalid');
      return;
    }
    const envelope = validation.message;
    const handler = this.getHandlerByPattern(routingKey);
    if (!handler) {
      const settled = await this.settle(channel, message, () =>
        this.deadLetter(message, routingKey, [`no handler for ${routingKey}`], false, envelope),
      );
      if (settled) messageMetrics.deadLettered(this.options.queue, routingKey, 'no_handler');
      return;
    }

    const slot = this.lanes.enter(this.fairnessKeyOf(envelope));
    if (!slot) {
      await this.deferOverflow(channel, message, routingKey, headers, attempt);
      return;
    }
    const release = await slot;
    if (!release) {
      // Shutting down before its turn: not started, so back to the broker for the next process.
      nack(channel, message);
      return;
    }
    try {
      // Its channel closed while it waited: the broker has given it to a consumer again.
      if (closedChannels.has(channel)) return;
      await this.run(channel, message, routingKey, envelope, handler, headers, attempt);
    } finally {
      release();
    }
  }

  private fairnessKeyOf(envelope: EventEnvelope): string {
    const key = this.options.fairnessKey ? this.options.fairnessKey(envelope) : envelope.accountId;
    return typeof key === 'string' && key ? key : SHARED_LANE;
  }

  /** A key's lane is full: the message waits in a retry queue (not an attempt), so the buffer stays shared. */
  private async deferOverflow(
    channel: ConfirmChannel,
    message: ConsumeMessage,
    routingKey: string,
    headers: Record<string, unknown>,
    attempt: number,
  ): Promise<void> {
    const deferrals = deferralCount(headers[Header.Deferrals]);
    const delayMs = overflowDelay(deferrals, this.tiersMs);
    const settled = await this.settle(channel, message, () =>
      this.sendBackLater(
        message,
        delayMs,
        {
          ...headers,
          [Header.Attempt]: attempt,
          [Header.Deferrals]: deferrals + 1,
          [Header.OriginalRoutingKey]: routingKey,
        },
        true,
      ),
    );
    if (settled) messageMetrics.overflowDeferred(this.options.queue, routingKey);
  }

  /** Runs the handler in its slot and settles the message by the outcome. */
  private async run(
    channel: ConfirmChannel,
    message: ConsumeMessage,
    routingKey: string,
    envelope: EventEnvelope,
    handler: MessageHandler,
    headers: Record<string, unknown>,
    attempt: number,
  ): Promise<void> {
    const started = Date.now();
    const aborter = new AbortController();
    try {
      const handled = (async () => {
        const result: unknown = await handler(envelope, new RabbitMqContext([message, attempt, aborter]));
        await lastValueFrom(this.transformToObservable(result), { defaultValue: undefined });
      })();
      await withTimeLimit(handled, this.options.handlerTimeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS, aborter);
      ack(channel, message);
      messageMetrics.handled(this.options.queue, routingKey, (Date.now() - started) / 1000);
      this.logger.debug(
        `handled ${envelope.type} ${envelope.id} (attempt ${attempt}) in ${Date.now() - started} ms`,
      );
    } catch (error) {
      messageMetrics.failed(this.options.queue, routingKey, (Date.now() - started) / 1000);
      markSpanFailed(error);
      const decision = decideOnFailure(error, attempt, this.delaysMs, this.deferralDelaysMs);
      const details = error instanceof MessageHandlingError ? (error.details ?? []) : [];
      const connectorId = error instanceof MessageHandlingError ? error.connectorId : undefined;
      if (decision.action === 'defer') {
        // Waiting is not failing: same attempt number, so no wait ever leads to the dead-letter queue.
        this.logger.log(
          `${envelope.type} ${envelope.id} waits ${decision.delayMs} ms (not an attempt): ${describeError(error)}`,
        );
        const settled = await this.settle(channel, message, () =>
          this.sendBackLater(
            message,
            decision.delayMs,
            {
              ...headers,
              [Header.Attempt]: attempt,
              [Header.Deferrals]: deferralCount(headers[Header.Deferrals]) + 1,
              [Header.OriginalRoutingKey]: routingKey,
            },
            true,
          ),
        );
        if (settled) messageMetrics.deferred(this.options.queue, routingKey);
      } else if (decision.action === 'retry') {
        this.logger.warn(
          `${envelope.type} ${envelope.id} attempt ${attempt} failed, retry in ${decision.delayMs} ms: ${describeError(error)}`,
        );
        const settled = await this.settle(channel, message, () =>
          this.sendBackLater(message, decision.delayMs, {
            ...headers,
            [Header.Attempt]: decision.nextAttempt,
            [Header.OriginalRoutingKey]: routingKey,
          }),
        );
        if (settled) messageMetrics.retried(this.options.queue, routingKey);
      } else {
        const settled = await this.settle(channel, message, () =>
          this.deadLetter(
            message,
            routingKey,
            [decision.reason],
            decision.retryable,
            envelope,
            connectorId,
            details,
          ),
        );
        const reason = decision.retryable ? 'attempts_exhausted' : 'permanent';
        if (settled) messageMetrics.deadLettered(this.options.queue, routingKey, reason);
      }
    }
  }

  /**
   * A request (REQUEST_TYPES, acknowledged already): the handler's result, or its error, goes back to the
   * requester. Nothing is retried or dead-lettered: the requester is waiting and decides. Each type has its
   * own slots; when they are all busy the answer is BUSY at once, with when to ask again.
   */
  private async answer(
    message: ConsumeMessage,
    replyQueue: string,
    routingKey: string,
    validation: ReturnType<typeof validateMessage>,
    refusal: string | undefined,
  ): Promise<void> {
    let reply: RpcReply;
    const started = Date.now();
    const handler = this.getHandlerByPattern(routingKey);
    if (refusal) {
      this.logger.warn(refusal);
      reply = { ok: false, error: { code: 'FORBIDDEN', message: refusal } };
    } else if (!validation.ok) {
      reply = { ok: false, error: { code: 'INVALID_REQUEST', message: validation.errors.join('; ') } };
    } else if (!handler) {
      reply = { ok: false, error: { code: 'NO_HANDLER', message: `no handler for ${routingKey}` } };
    } else if ((this.requestsRunning.get(routingKey) ?? 0) >= this.requestSlots(routingKey)) {
      const retryAfterMs = Math.round(BUSY_RETRY_AFTER_MS * (0.5 + Math.random()));
      reply = {
        ok: false,
        error: {
          code: 'BUSY',
          message: `busy with ${routingKey} requests, retry after ${retryAfterMs} ms`,
          retryAfterMs,
        },
      };
    } else {
      this.requestsRunning.set(routingKey, (this.requestsRunning.get(routingKey) ?? 0) + 1);
      try {
        const aborter = new AbortController();
        const answered = (async () => {
          const result: unknown = await handler(
            validation.message,
            new RabbitMqContext([message, 1, aborter]),
          );
          return lastValueFrom(this.transformToObservable(result), { defaultValue: null });
        })();
        const timeoutMs = this.options.handlerTimeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS;
        const data: unknown = await withTimeLimit(answered, timeoutMs, aborter);
        reply = { ok: true, data: data ?? null };
      } catch (error) {
        const { code, retryAfterMs } = (error ?? {}) as { code?: unknown; retryAfterMs?: unknown };
        reply = {
          ok: false,
          error: {
            code: typeof code === 'string' ? code : 'FAILED',
            message: describeError(error),
            // A handler's own BUSY (its ATS call slots full) says when to ask again, as the transport's does.
            ...(typeof retryAfterMs === 'number' && retryAfterMs >= 0 ? { retryAfterMs } : {}),
          },
        };
      } finally {
        this.requestsRunning.set(routingKey, (this.requestsRunning.get(routingKey) ?? 1) - 1);
      }
    }
    await this.sendReply(replyQueue, message.properties.correlationId, reply);
    const seconds = (Date.now() - started) / 1000;
    if (reply.ok) messageMetrics.handled(this.options.queue, routingKey, seconds);
    else messageMetrics.requestFailed(this.options.queue, routingKey, reply.error.code, seconds);
    this.logger.debug(
      `answered ${routingKey} ${message.properties.messageId ?? ''}: ${reply.ok ? 'ok' : reply.error.code}`,
    );
  }

  private requestSlots(routingKey: string): number {
    return (
      this.options.requestConcurrency?.[routingKey] ??
      this.options.defaultRequestConcurrency ??
      DEFAULT_REQUEST_CONCURRENCY
    );
  }

  /**
   * Into the requester's reply queue by its name; dropped when the requester is gone (not mandatory). On a
   * channel of its own: were the broker to refuse it, it closes that channel, and the consumer's messages in
   * flight stay where they are.
   */
  private async sendReply(replyQueue: string, correlationId: unknown, reply: RpcReply): Promise<void> {
    this.replyChannel ??= this.connection.createChannel({
      name: `replies:${this.options.queue}`,
      confirm: false,
      json: false,
      publishTimeout: 10_000,
      setup: () => this.connection.waitForExchanges(),
    });
    try {
      await this.replyChannel.publish(Exchange.Replies, replyQueue, Buffer.from(JSON.stringify(reply)), {
        correlationId: typeof correlationId === 'string' ? correlationId : undefined,
        contentType: 'application/json',
        userId: this.connection.user,
      });
    } catch (error) {
      // The requester times out and may ask again.
      this.logger.warn(`could not answer into ${replyQueue}: ${describeError(error)}`);
    }
  }

  /**
   * Acknowledges the message once `handOver` has safely put it (or its copy) somewhere else; false when it
   * could not and the message was given back.
   */
  private async settle(
    channel: ConfirmChannel,
    message: ConsumeMessage,
    handOver: () => Promise<void>,
  ): Promise<boolean> {
    try {
      await handOver();
      ack(channel, message);
      return true;
    } catch (error) {
      // The broker is in trouble: give the message back after a pause rather than lose it.
      this.logger.error(`could not re-route message, requeueing: ${describeError(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      nack(channel, message);
      return false;
    }
  }

  /**
   * A copy into the retry queue of `delayMs`, whose TTL sends it back to the main queue. A deferral's copy
   * may leave up to a quarter earlier (its own expiry), so a storm deferred together does not return together.
   */
  private sendBackLater(
    message: ConsumeMessage,
    delayMs: number,
    headers: Record<string, unknown>,
    jitter = false,
  ): Promise<void> {
    const { queue } = this.options;
    return this.publisher.publishRaw(
      queueExchangeName(queue),
      retryQueueName(queue, delayMs),
      message.content,
      {
        messageId: message.properties.messageId as string | undefined,
        headers,
        mandatory: true,
        ...(jitter ? { expirationMs: jittered(delayMs) } : {}),
      },
    );
  }

  private async deadLetter(
    message: ConsumeMessage,
    routingKey: string,
    reasons: string[],
    retryable: boolean,
    envelope: Envelope | undefined,
    connectorId?: string,
    /** The error's details (an ATS's own words may quote a candidate): only the dead letter keeps them. */
    details: readonly string[] = [],
  ): Promise<void> {
    const messageId: unknown = message.properties.messageId;
    const sourceEventId =
      typeof envelope?.id === 'string' && envelope.id
        ? envelope.id
        : typeof messageId === 'string' && messageId
          ? messageId
          : 'unknown';
    this.logger.warn(`dead-lettering ${routingKey} ${sourceEventId}: ${reasons.join('; ')}`);
    const { body, cut } = keptOf(message.content);
    const { queue } = this.options;
    await this.publisher.publishRaw(queueExchangeName(queue), deadLetterQueueName(queue), body, {
      mandatory: true,
      messageId: message.properties.messageId as string | undefined,
      contentType: message.properties.contentType as string | undefined,
      headers: {
        ...message.properties.headers,
        ...cut,
        [Header.DeadLetterReasons]: JSON.stringify([...reasons, ...details]),
        [Header.OriginalRoutingKey]: routingKey,
        [Header.OriginalExchange]: message.fields.exchange,
        [Header.FailedAt]: new Date().toISOString(),
        [Header.Retryable]: retryable,
        ...(connectorId ? { [Header.ConnectorId]: connectorId } : {}),
      },
    });
    // A failure report about a failure report would loop; those are only dead-lettered.
    if (routingKey === RoutingKey.OperationFailed) return;
    // The dead letter is safe: the report is best-effort. Were its failure to give the message back, each
    // redelivery would dead-letter another copy.
    try {
      await this.publisher.publish(
        Exchange.ConnectorEvents,
        failureReport({
          accountId: envelope?.accountId,
          correlationId: envelope?.correlationId,
          connectorId,
          sourceEventId,
          sourceType: typeof envelope?.type === 'string' && envelope.type ? envelope.type : routingKey,
          reasons,
          retryable,
        }),
      );
    } catch (error) {
      this.logger.error(
        `dead-lettered ${routingKey} ${sourceEventId}, but could not report it: ${describeError(error)}`,
      );
    }
  }
}

function keptOf(content: Buffer): { body: Buffer; cut?: Record<string, unknown> } {
  const cut = tooLargeCut(content);
  if (!cut) return { body: content };
  return {
    body: cut.body,
    cut: { [Header.OriginalBytes]: cut.bytes, [Header.OriginalSha256]: cut.sha256 },
  };
}

/** Consumer channels that closed: the broker has handed their unsettled messages to a consumer again. */
const closedChannels = new WeakSet<ConfirmChannel>();

/** Deliveries acknowledged or given back (or whose channel closed first): they must not be settled again. */
const settledMessages = new WeakSet<ConsumeMessage>();

function asEnvelope(value: unknown): Envelope | undefined {
  return typeof value === 'object' && value !== null ? (value as Envelope) : undefined;
}

/** A channel that closed has already handed its unacked messages back to the broker; nothing to do. */
function ack(channel: ConfirmChannel, message: ConsumeMessage): void {
  settledMessages.add(message);
  try {
    channel.ack(message);
  } catch {
    /* channel closed: the broker redelivers */
  }
}

function nack(channel: ConfirmChannel, message: ConsumeMessage): void {
  settledMessages.add(message);
  try {
    channel.nack(message, false, true);
  } catch {
    /* channel closed: the broker redelivers */
  }
}
