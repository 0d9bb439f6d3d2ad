import { Logger } from '@nestjs/common';
import type { ChannelWrapper } from 'amqp-connection-manager';
import { gauge } from '@connector/observability';
import type { RabbitConnection } from './rabbitmq.connection';
import { deadLetterQueueName, retryQueueName } from './topology';

interface QueueStats {
  queue: string;
  messages: number;
  consumers: number;
}

/** The reporters of this process (one per consuming service; tests may run several in one process). */
const reporters = new Set<QueueDepthReporter>();
let latest: { at: number; stats: Promise<QueueStats[]> } | undefined;

/** One broker round of questions per scrape, shared by both gauges. */
function currentStats(): Promise<QueueStats[]> {
  if (!latest || Date.now() - latest.at > 1_000) {
    const asked = Promise.all([...reporters].map((reporter) => reporter.stats()));
    latest = { at: Date.now(), stats: asked.then((lists) => lists.flat()) };
  }
  return latest.stats;
}

const queueMessages = gauge({
  name: 'connector_queue_messages',
  help: 'Messages ready in a queue, waiting for a consumer, as the broker counts them (main, retry and dead-letter queues)',
  labelNames: ['queue'],
  async collect() {
    const stats = await currentStats();
    queueMessages.reset();
    for (const { queue, messages } of stats) queueMessages.set({ queue }, messages);
  },
});

const queueConsumers = gauge({
  name: 'connector_queue_consumers',
  help: 'Consumers attached to a queue, as the broker counts them (every process of the service)',
  labelNames: ['queue'],
  async collect() {
    const stats = await currentStats();
    queueConsumers.reset();
    for (const { queue, consumers } of stats) queueConsumers.set({ queue }, consumers);
  },
});

/**
 * Asks the broker how deep this service's queues are (a passive declare: `checkQueue`) when /metrics is
 * scraped, on a channel of its own so a missing queue never closes the consumer's channel.
 */
export class QueueDepthReporter {
  private readonly logger = new Logger(QueueDepthReporter.name);
  private readonly queues: string[];
  private channel?: ChannelWrapper;

  constructor(
    private readonly connection: RabbitConnection,
    queue: string,
    retryDelaysMs: readonly number[],
    private readonly timeoutMs = 2_000,
  ) {
    this.queues = [
      queue,
      ...retryDelaysMs.map((delay) => retryQueueName(queue, delay)),
      deadLetterQueueName(queue),
    ];
  }

  start(): void {
    this.channel = this.connection.createChannel({ name: 'queue-depth', json: false });
    reporters.add(this);
  }

  async stop(): Promise<void> {
    reporters.delete(this);
    await this.channel?.close().catch(() => undefined);
  }

  /** The queues that answered in time; one that does not exist (yet) or a broker away leaves gaps. */
  async stats(): Promise<QueueStats[]> {
    const channel = this.channel;
    if (!channel || !this.connection.isConnected()) return [];
    const answers = await Promise.all(
      this.queues.map(async (queue) => {
        try {
          const { messageCount, consumerCount } = await withTimeout(
            channel.checkQueue(queue),
            this.timeoutMs,
          );
          return [{ queue, messages: messageCount, consumers: consumerCount }];
        } catch (error) {
          this.logger.debug(`no depth for ${queue}: ${(error as Error).message}`);
          return [];
        }
      }),
    );
    return answers.flat();
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
