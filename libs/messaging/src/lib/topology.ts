import type { Channel } from 'amqplib';
import { Exchange } from '@connector/contracts';

export interface QueueBinding {
  exchange: string;
  routingKeys: string[];
}

export interface ConsumerTopology {
  queue: string;
  bindings: QueueBinding[];
  retryDelaysMs: readonly number[];
}

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
 * The main queue (quorum: replicated, durable), one retry queue per delay and a dead-letter queue.
 * Retries are queues with a fixed TTL instead of per-message expiry, so a long delay never holds up
 * a short one behind it.
 */
export async function declareConsumerTopology(channel: Channel, topology: ConsumerTopology): Promise<void> {
  await declareExchanges(channel);
  const { queue } = topology;
  await channel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  for (const binding of topology.bindings) {
    for (const routingKey of binding.routingKeys) {
      await channel.bindQueue(queue, binding.exchange, routingKey);
    }
  }
  for (const delayMs of topology.retryDelaysMs) {
    await channel.assertQueue(retryQueueName(queue, delayMs), {
      durable: true,
      arguments: {
        'x-message-ttl': delayMs,
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': queue,
      },
    });
  }
  await channel.assertQueue(deadLetterQueueName(queue), {
    durable: true,
    arguments: { 'x-queue-type': 'quorum' },
  });
}
