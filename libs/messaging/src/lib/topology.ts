import { randomUUID } from 'node:crypto';
import type { Channel } from 'amqplib';
import { Exchange } from '@connector/contracts';

export interface QueueBinding {
  exchange: string;
  routingKeys: string[];
  /** Keys an earlier version bound this queue to: unbound at start, since a durable queue keeps its bindings. */
  retiredRoutingKeys?: string[];
}

export interface ConsumerTopology {
  queue: string;
  bindings: QueueBinding[];
  retryDelaysMs: readonly number[];
  /**
   * Deliveries without a settlement (the consumer crashed or its channel closed) after which the broker
   * dead-letters a message into `<queue>.dead`: a message that kills its consumer cannot loop forever.
   */
  deliveryLimit?: number;
}

/** Crashed deliveries allowed before the broker dead-letters a message (see `ConsumerTopology`). */
export const DEFAULT_DELIVERY_LIMIT = 10;

/** Retry tier queues hold a message for their TTL, then dead-letter it back into the main queue. */
export function retryQueueName(queue: string, delayMs: number): string {
  return `${queue}.retry.${delayMs}ms`;
}

export function deadLetterQueueName(queue: string): string {
  return `${queue}.dead`;
}

/**
 * A queue's own exchange (direct): it routes into the queue, its retry queues and its dead-letter queue, each
 * by its name. Retry and dead-letter copies, the broker's dead-lettering and the registry's replays all go
 * through it, so no service needs the default exchange (which reaches every queue) and each writes only
 * into its own queues.
 */
export function queueExchangeName(queue: string): string {
  return `${queue}.dlx`;
}

/**
 * A requester's reply queue, `<service>.reply.<uuid>`: exclusive to its connection, bound to
 * `connector.replies` by its name. Its service's broker user may bind and read only its own.
 */
export function replyQueueName(requester: string, id: string = randomUUID()): string {
  return `${requester}.reply.${id}`;
}

/** The reply queue names of one service, as a regular expression's source (the broker permissions' too). */
export function replyQueuePattern(service: string): string {
  return `${service.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.reply\\.[0-9a-f-]{36}`;
}

/**
 * The shared exchanges are durable topic exchanges that the broker set-up creates (the definitions,
 * `npm run broker-users -- --apply`, `npm start`, the tests' vhosts), as an administrator. Our services only
 * check that they exist (`RabbitConnection.waitForExchanges`): their users may not declare them, so none can
 * delete them or re-declare them with other arguments.
 */
export async function declareSharedExchanges(channel: Channel): Promise<void> {
  for (const name of Object.values(Exchange)) {
    await channel.assertExchange(name, 'topic', { durable: true });
  }
}

/**
 * The main queue (quorum: replicated, durable, with a delivery limit), one retry queue per delay and a
 * dead-letter queue, bound to exchanges that exist already (binding needs only write on the queue and read
 * on the exchange). Retries are queues with a fixed TTL instead of per-message expiry, so a long delay
 * never holds up a short one behind it.
 */
export async function declareConsumerTopology(
  channel: Channel,
  topology: ConsumerTopology,
  /** False for a queue declared before it had a delivery limit (see `mainQueueArguments`): kept as it is. */
  withLimit = true,
  /** Delays whose retry queue was declared before `retryQueueArguments` (classic): kept as it is. */
  olderRetryDelaysMs: readonly number[] = [],
): Promise<void> {
  const { queue } = topology;
  const own = queueExchangeName(queue);
  await channel.assertExchange(own, 'direct', { durable: true });
  if (withLimit) {
    await channel.assertQueue(queue, { durable: true, arguments: mainQueueArguments(topology) });
  } else {
    await channel.checkQueue(queue);
  }
  // Retries come back (and replays come in) through the queue's own exchange.
  await channel.bindQueue(queue, own, queue);
  for (const binding of topology.bindings) {
    for (const routingKey of binding.routingKeys) {
      await channel.bindQueue(queue, binding.exchange, routingKey);
    }
    for (const routingKey of binding.retiredRoutingKeys ?? []) {
      await channel.unbindQueue(queue, binding.exchange, routingKey);
    }
  }
  for (const delayMs of topology.retryDelaysMs) {
    const retryQueue = retryQueueName(queue, delayMs);
    if (olderRetryDelaysMs.includes(delayMs)) await channel.checkQueue(retryQueue);
    else
      await channel.assertQueue(retryQueue, {
        durable: true,
        arguments: retryQueueArguments(queue, delayMs),
      });
    await channel.bindQueue(retryQueue, own, retryQueue);
  }
  await channel.assertQueue(deadLetterQueueName(queue), {
    durable: true,
    arguments: { 'x-queue-type': 'quorum' },
  });
  await channel.bindQueue(deadLetterQueueName(queue), own, deadLetterQueueName(queue));
}

/**
 * The main queue's arguments: quorum, and a delivery limit whose dead letters go to `<queue>.dead` (through
 * the queue's own exchange) at least once (the broker keeps the message until the dead-letter queue has
 * confirmed it).
 */
export function mainQueueArguments(topology: Pick<ConsumerTopology, 'queue' | 'deliveryLimit'>) {
  return {
    'x-queue-type': 'quorum',
    'x-delivery-limit': topology.deliveryLimit ?? DEFAULT_DELIVERY_LIMIT,
    'x-dead-letter-exchange': queueExchangeName(topology.queue),
    'x-dead-letter-routing-key': deadLetterQueueName(topology.queue),
    'x-dead-letter-strategy': 'at-least-once',
    'x-overflow': 'reject-publish',
  };
}

/**
 * A retry queue's arguments: it holds a message for `delayMs`, then dead-letters it back into the main queue.
 * Quorum with at-least-once dead-lettering: a classic queue dead-letters at most once, and drops a message
 * whose delay ends while the broker stops or starts (the main queue not there to take it).
 */
export function retryQueueArguments(queue: string, delayMs: number) {
  return {
    'x-queue-type': 'quorum',
    'x-message-ttl': delayMs,
    'x-dead-letter-exchange': queueExchangeName(queue),
    'x-dead-letter-routing-key': queue,
    'x-dead-letter-strategy': 'at-least-once',
    'x-overflow': 'reject-publish',
  };
}

/**
 * A queue's arguments never change once it exists; a queue declared before the delivery limit gets the same
 * limit from a policy instead (policies apply to existing queues), set once per broker by an operator.
 */
export function deliveryLimitPolicyCommand(
  topology: Pick<ConsumerTopology, 'queue' | 'deliveryLimit'>,
): string {
  const definition = JSON.stringify({
    'delivery-limit': topology.deliveryLimit ?? DEFAULT_DELIVERY_LIMIT,
    'dead-letter-exchange': queueExchangeName(topology.queue),
    'dead-letter-routing-key': deadLetterQueueName(topology.queue),
    'dead-letter-strategy': 'at-least-once',
    overflow: 'reject-publish',
  });
  const pattern = `^${topology.queue.replace(/[.]/g, '\\.')}$`;
  return `rabbitmqctl set_policy --apply-to queues ${topology.queue}-delivery-limit '${pattern}' '${definition}'`;
}
