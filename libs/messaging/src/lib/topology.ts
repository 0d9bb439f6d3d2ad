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
 * A requester's reply address, `<service>.reply.<uuid>`: the routing key its reply queue (server-named,
 * exclusive to its connection) is bound to `connector.replies` with. Its service's broker user may bind only
 * its own (topic permissions).
 */
export function replyQueueName(requester: string, id: string = randomUUID()): string {
  return `${requester}.reply.${id}`;
}

/** The reply addresses of one service, as a regular expression's source (the broker permissions' too). */
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

/** One queue of a consumer's topology and the arguments it is declared with. */
export interface QueueDeclaration {
  name: string;
  arguments: Record<string, unknown>;
}

/** A binding from an exchange into a queue. */
export interface BindingDeclaration {
  exchange: string;
  queue: string;
  routingKey: string;
}

/**
 * What a consumer's topology consists of: its own exchange, the main queue (quorum: replicated, durable,
 * with a delivery limit), one retry queue per delay and a dead-letter queue, and every binding into them.
 * Retries are queues with a fixed TTL instead of per-message expiry, so a long delay never holds up a short
 * one behind it. The broker set-up and the services (local mode) declare it from here, and the
 * definitions list it.
 */
export function consumerDeclarations(topology: ConsumerTopology): {
  exchange: string;
  queues: QueueDeclaration[];
  bindings: BindingDeclaration[];
} {
  const { queue } = topology;
  const own = queueExchangeName(queue);
  const retryQueues = topology.retryDelaysMs.map((delayMs) => ({
    name: retryQueueName(queue, delayMs),
    arguments: retryQueueArguments(queue, delayMs),
  }));
  const dead = { name: deadLetterQueueName(queue), arguments: { 'x-queue-type': 'quorum' } };
  return {
    exchange: own,
    queues: [{ name: queue, arguments: mainQueueArguments(topology) }, ...retryQueues, dead],
    bindings: [
      // Retries come back (and replays come in) through the queue's own exchange.
      { exchange: own, queue, routingKey: queue },
      ...topology.bindings.flatMap(({ exchange, routingKeys }) =>
        routingKeys.map((routingKey) => ({ exchange, queue, routingKey })),
      ),
      ...[...retryQueues, dead].map(({ name }) => ({ exchange: own, queue: name, routingKey: name })),
    ],
  };
}

/**
 * Declares a queue with `args` unless it exists with others (declared by an earlier version: arguments never
 * change), on a channel of its own, which such a refusal closes. False when it exists with others.
 */
export async function declaresQueueWith(
  connection: { createChannel(): Promise<Channel> },
  queue: string,
  args: Record<string, unknown>,
): Promise<boolean> {
  const channel = await connection.createChannel();
  channel.on('error', () => undefined); // a refused declaration closes this channel: that is the answer
  try {
    await channel.assertQueue(queue, { durable: true, arguments: args });
  } catch (error) {
    if ((error as { code?: unknown }).code === 406) return false;
    throw error;
  }
  await channel.close().catch(() => undefined);
  return true;
}

/**
 * Declares a consumer's topology (consumerDeclarations) on `channel`, bound to exchanges that exist
 * already, and unbinds its retired keys. `olderQueues`: queues declared by an earlier version with other
 * arguments (which never change): only checked, kept as they are.
 */
export async function declareConsumerTopology(
  channel: Channel,
  topology: ConsumerTopology,
  olderQueues: readonly string[] = [],
): Promise<void> {
  const { exchange, queues, bindings } = consumerDeclarations(topology);
  await channel.assertExchange(exchange, 'direct', { durable: true });
  for (const queue of queues) {
    if (olderQueues.includes(queue.name)) await channel.checkQueue(queue.name);
    else await channel.assertQueue(queue.name, { durable: true, arguments: queue.arguments });
  }
  for (const binding of bindings)
    await channel.bindQueue(binding.queue, binding.exchange, binding.routingKey);
  for (const binding of topology.bindings) {
    for (const routingKey of binding.retiredRoutingKeys ?? []) {
      await channel.unbindQueue(topology.queue, binding.exchange, routingKey);
    }
  }
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
