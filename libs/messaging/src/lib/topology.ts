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

/** The three exchanges are durable topic exchanges, declared by whoever touches them first. */
export async function declareExchanges(channel: Channel): Promise<void> {
  for (const name of Object.values(Exchange)) {
    await channel.assertExchange(name, 'topic', { durable: true });
  }
}

/**
 * The main queue (quorum: replicated, durable, with a delivery limit), one retry queue per delay and a
 * dead-letter queue. Retries are queues with a fixed TTL instead of per-message expiry, so a long delay
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
  await declareExchanges(channel);
  const { queue } = topology;
  if (withLimit) {
    await channel.assertQueue(queue, { durable: true, arguments: mainQueueArguments(topology) });
  } else {
    await channel.checkQueue(queue);
  }
  for (const binding of topology.bindings) {
    for (const routingKey of binding.routingKeys) {
      await channel.bindQueue(queue, binding.exchange, routingKey);
    }
    for (const routingKey of binding.retiredRoutingKeys ?? []) {
      await channel.unbindQueue(queue, binding.exchange, routingKey);
    }
  }
  for (const delayMs of topology.retryDelaysMs) {
    if (olderRetryDelaysMs.includes(delayMs)) await channel.checkQueue(retryQueueName(queue, delayMs));
    else
      await channel.assertQueue(retryQueueName(queue, delayMs), {
        durable: true,
        arguments: retryQueueArguments(queue, delayMs),
      });
  }
  await channel.assertQueue(deadLetterQueueName(queue), {
    durable: true,
    arguments: { 'x-queue-type': 'quorum' },
  });
}

/**
 * The main queue's arguments: quorum, and a delivery limit whose dead letters go to `<queue>.dead`
 * at least once (the broker keeps the message until the dead-letter queue has confirmed it).
 */
export function mainQueueArguments(topology: Pick<ConsumerTopology, 'queue' | 'deliveryLimit'>) {
  return {
    'x-queue-type': 'quorum',
    'x-delivery-limit': topology.deliveryLimit ?? DEFAULT_DELIVERY_LIMIT,
    'x-dead-letter-exchange': '',
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
    'x-dead-letter-exchange': '',
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
    'dead-letter-exchange': '',
    'dead-letter-routing-key': deadLetterQueueName(topology.queue),
    'dead-letter-strategy': 'at-least-once',
    overflow: 'reject-publish',
  });
  const pattern = `^${topology.queue.replace(/[.]/g, '\\.')}$`;
  return `rabbitmqctl set_policy --apply-to queues ${topology.queue}-delivery-limit '${pattern}' '${definition}'`;
}
